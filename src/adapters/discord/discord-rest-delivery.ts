import { DiscordAPIError, RateLimitError, type REST, Routes, SnowflakeUtil } from 'discord.js';
import type { ChannelRef, NeutralMessage } from '../../core/index.js';
import {
  type ChannelPoster,
  ChannelUnavailableError,
  DeliveryNotPostedError,
  type ThreadTarget,
} from '../../delivery/index.js';
import type { Clock } from '../../lib/clock.js';
import { unavailableReasons } from './channel-unavailable-reasons.js';
import { nonceFromKey } from './discord-nonce.js';
import { renderEmbed } from './render-embed.js';

/** Clock skew between Discord's snowflakes and ours: the look starts this much earlier. */
const lookMarginMs = 60_000;
/** Pages of 100 messages read per look (after the attempt start). */
const maxLookPages = 3;
/** Discord: "A thread has already been created for this message". */
const threadAlreadyExists = 160004;
/** Thread names are at most 100 characters. */
const maxThreadName = 100;

/** A post may land until the REST timeout: the router waits that long plus this margin before it looks. */
export function discordInDoubtSettleMs(restTimeoutMs: number): number {
  return restTimeoutMs + 5_000;
}

/**
 * A Discord poster's `post` around the part that differs between posters (`send`: check the
 * target channel, create the message with the nonce, return its id): only Discord channels (anything
 * else is a routing bug), a reply goes to the thread's own channel, its id qualified for `edit`, and
 * every failure classified by what it proves about the post.
 */
export function discordPost(
  send: (
    target: string,
    ref: ChannelRef,
    message: NeutralMessage,
    nonce: string,
    thread?: ThreadTarget,
  ) => Promise<string>,
): ChannelPoster['post'] {
  return async (ref, message, idempotencyKey, thread) => {
    if (ref.platform !== 'discord') {
      throw new Error(`The Discord poster got a ${ref.platform} channel: check the notice routing`);
    }
    const target = targetChannelId(ref, thread);
    try {
      const id = await send(target, ref, message, nonceFromKey(idempotencyKey), thread);
      return { messageId: qualifiedId(ref, target, id) };
    } catch (error) {
      throw classifyDiscordError(error, ref);
    }
  };
}

/** The channel a post goes to: the thread's own channel for a reply. */
function targetChannelId(ref: ChannelRef, thread: ThreadTarget | undefined): string {
  return thread ? (thread.threadId ?? thread.parentMessageId) : ref.channelId;
}

/**
 * A message's id as the ledger keeps it: a reply in a thread lives in the thread's
 * channel, so its id carries that channel (`<thread id>/<message id>`) and `edit`
 * finds it again. Ids in the channel itself stay bare.
 */
function qualifiedId(ref: ChannelRef, channelId: string, messageId: string): string {
  return channelId === ref.channelId ? messageId : `${channelId}/${messageId}`;
}

export interface DiscordRestDeliveryOptions {
  readonly rest: REST;
  readonly clock: Clock;
  /** The bot's own user id (its messages are the only ones a look may match); undefined while unknown. */
  readonly botUserId: () => Promise<string | undefined>;
  /**
   * How long Discord dedupes a repeat with the same nonce (`enforce_nonce`). Discord
   * says "a few minutes" without a number: 2 minutes is inside it. Default 120 s.
   */
  readonly nonceWindowMs?: number;
}

/**
 * What every Discord poster does through REST alone, whether it posts through the
 * gateway client or through REST (HTTP interactions mode, replicas without the
 * gateway): edit a posted notice (a correction), open the daily thread on a message,
 * and resolve a delivery in doubt.
 *
 * `findPosted`: inside the nonce window, posting again with the same nonce is the
 * check (Discord dedupes it); after it, the bot's messages since the attempt began
 * are read (GET /channels/{id}/messages?after=<snowflake of the attempt start>, up
 * to 3 pages of 100) and the notice is recognised by its nonce or, as GET does not
 * return nonces, by its embed (title, description and footer).
 *
 * Cost: edit 1 request (PATCH), startThread 1 (POST), a look 1-3 (GET) and only for a
 * delivery in doubt past the nonce window.
 */
export function discordRestDelivery(
  options: DiscordRestDeliveryOptions,
): Required<Pick<ChannelPoster, 'edit' | 'startThread' | 'findPosted'>> {
  const { rest, clock } = options;
  const nonceWindowMs = options.nonceWindowMs ?? 120_000;
  return {
    async edit(ref, messageId, message) {
      const [channelId, id] = messageId.includes('/')
        ? (messageId.split('/', 2) as [string, string])
        : [ref.channelId, messageId];
      try {
        // PATCH /channels/{channel}/messages/{message}, mentions off as on a post.
        await rest.patch(Routes.channelMessage(channelId, id), {
          body: { embeds: renderEmbed(message).embeds, allowed_mentions: { parse: [] } },
        });
      } catch (error) {
        throw classifyDiscordError(error, ref);
      }
    },
    async startThread(ref, parentMessageId, name) {
      try {
        // POST /channels/{channel}/messages/{message}/threads: the thread takes the message's id.
        const thread = (await rest.post(Routes.threads(ref.channelId, parentMessageId), {
          body: { name: name.slice(0, maxThreadName) || 'fundbot', auto_archive_duration: 1440 },
        })) as { id: string };
        return { parentMessageId, threadId: thread.id };
      } catch (error) {
        // Opened before (a restart between opening it and storing its id): the same thread.
        if (error instanceof DiscordAPIError && error.code === threadAlreadyExists) {
          return { parentMessageId, threadId: parentMessageId };
        }
        throw classifyDiscordError(error, ref);
      }
    },
    async findPosted(ref, idempotencyKey, attemptStartedAt, message, thread) {
      // Inside the window a repeat with the same nonce cannot duplicate: posting again IS the check.
      if (clock.now() - attemptStartedAt < nonceWindowMs) return undefined;
      const target = targetChannelId(ref, thread);
      const nonce = nonceFromKey(idempotencyKey);
      const wanted = embedSignature(renderEmbed(message).embeds[0]);
      let after = SnowflakeUtil.generate({
        timestamp: Math.max(0, attemptStartedAt - lookMarginMs),
      }).toString();
      try {
        const me = await options.botUserId();
        for (let page = 0; page < maxLookPages; page += 1) {
          const query = new URLSearchParams({ after, limit: '100' });
          const messages = (await rest.get(Routes.channelMessages(target), { query })) as {
            id: string;
            nonce?: string | number;
            author?: { id?: string };
            embeds?: unknown[];
          }[];
          const hit = messages.find(
            (m) =>
              m.author?.id === me &&
              (String(m.nonce ?? '') === nonce || embedSignature(m.embeds?.[0]) === wanted),
          );
          if (hit) return { messageId: qualifiedId(ref, target, hit.id) };
          if (messages.length < 100) return undefined;
          // Newest first: continue after the newest of this page.
          after = messages.reduce((max, m) => (BigInt(m.id) > BigInt(max) ? m.id : max), after);
        }
      } catch (error) {
        throw classifyDiscordError(error, ref);
      }
      throw new Error(
        `more than ${maxLookPages * 100} messages in Discord channel ${target} since the attempt: the look continues on the next retry`,
      );
    },
  };
}

/** What identifies a notice's embed when the nonce is not returned. */
function embedSignature(embed: unknown): string | undefined {
  if (!embed || typeof embed !== 'object') return undefined;
  const e = embed as { title?: unknown; description?: unknown; footer?: { text?: unknown } };
  return JSON.stringify([e.title ?? null, e.description ?? null, e.footer?.text ?? null]);
}

/** Maps a discord.js failure to what it proves about a post: gone, refused before anything was created, or in doubt. */
function classifyDiscordError(error: unknown, ref: ChannelRef): unknown {
  if (error instanceof ChannelUnavailableError) return error;
  if (error instanceof RateLimitError) {
    return new DeliveryNotPostedError(
      `Discord rate limit: retry after ${error.retryAfter} ms`,
      error.retryAfter,
      {
        cause: error,
      },
    );
  }
  if (error instanceof DiscordAPIError) {
    const reason = unavailableReasons.get(error.code);
    if (reason) return new ChannelUnavailableError(ref, reason, { cause: error });
    // A 4xx is a refusal before anything was created; a 5xx may come after.
    if (error.status >= 400 && error.status < 500) {
      return new DeliveryNotPostedError(
        `Discord refused the message (${error.status} ${error.code})`,
        undefined,
        {
          cause: error,
        },
      );
    }
  }
  return error;
}
