import { type Client, DiscordAPIError, RateLimitError, Routes, SnowflakeUtil } from 'discord.js';
import {
  type ChannelPoster,
  type ChannelRef,
  ChannelUnavailableError,
  DeliveryNotPostedError,
  type NeutralMessage,
  type PostReceipt,
  type ThreadTarget,
} from '../../core/index.js';
import type { Clock } from '../../lib/clock.js';
import { nonceFromKey } from './discord-nonce.js';
import { renderEmbed } from './render-embed.js';

/**
 * Discord's codes for "this channel will not take our messages": retrying cannot
 * help. Unknown Channel means it is gone (or the bot left the server); Missing
 * Access / Missing Permissions mean the bot may not see or post there.
 */
const unavailableReasons: ReadonlyMap<number | string, ChannelUnavailableError['reason']> = new Map([
  [10003, 'gone'],
  [50001, 'no-access'],
  [50013, 'no-access'],
]);

const noMentions = { parse: [] } as const;

export interface DiscordPosterOptions {
  readonly client: Client;
  readonly clock: Clock;
  /** The REST timeout: a post may land until then; the router waits that long plus a margin. */
  readonly restTimeoutMs: number;
  /**
   * How long Discord dedupes a repeat with the same nonce (`enforce_nonce`). Discord
   * says "a few minutes" without a number: 2 minutes is inside it. Default 120 s.
   */
  readonly nonceWindowMs?: number;
}

/** Clock skew between Discord's snowflakes and ours: the look starts this much earlier. */
const lookMarginMs = 60_000;
/** Pages of 100 messages read per look (after the attempt start). */
const maxLookPages = 3;
/** Discord: "A thread has already been created for this message". */
const threadAlreadyExists = 160004;
/** Thread names are at most 100 characters. */
const maxThreadName = 100;

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

/**
 * Posts notices into Discord channels: an embed with a nonce derived from the
 * delivery's idempotency key and `enforce_nonce`, so a repeat within Discord's
 * window returns the message already created instead of a second one.
 *
 * A delivery in doubt (timeout, reset, 5xx, crash) is resolved by `findPosted`:
 * inside the nonce window, posting again with the same nonce is the check (Discord
 * dedupes it); after the window, the bot's messages since the attempt began are
 * read (GET /channels/{id}/messages?after=<snowflake of the attempt start>, up to
 * 3 pages of 100) and the notice is recognised by its nonce or, as GET does not
 * return nonces, by its embed (title, description and footer).
 *
 * Rate limits: discord.js's REST queue obeys Discord's waits (the 429's
 * Retry-After, per route and global, and the bucket headers): no request on that
 * route (any route for a global limit) before the wait ends. A 429 never posts.
 */
export function createDiscordPoster(options: DiscordPosterOptions): ChannelPoster {
  const { client, clock } = options;
  const nonceWindowMs = options.nonceWindowMs ?? 120_000;

  return {
    platform: 'discord',
    inDoubtSettleMs: options.restTimeoutMs + 5_000,
    async post(
      ref: ChannelRef,
      message: NeutralMessage,
      idempotencyKey: string,
      thread?: ThreadTarget,
    ): Promise<PostReceipt> {
      if (ref.platform !== 'discord') {
        throw new Error(`The Discord poster got a ${ref.platform} channel: check the notice routing`);
      }
      const target = targetChannelId(ref, thread);
      try {
        const channel = await client.channels.fetch(target);
        // Not in this server as far as the subscription knows: never post across servers.
        if (!channel || ('guildId' in channel && channel.guildId !== ref.workspaceId)) {
          throw new ChannelUnavailableError(ref, 'gone');
        }
        // A reply goes only into a thread of the subscribed channel.
        if (thread && !(channel.isThread() && channel.parentId === ref.channelId)) {
          throw new ChannelUnavailableError(ref, 'gone');
        }
        if (!channel.isSendable() || channel.isDMBased()) throw new ChannelUnavailableError(ref, 'no-access');
        // `private` has no meaning in a channel post: notices are for everyone in it.
        const sent = await channel.send({
          ...renderEmbed(message),
          allowedMentions: noMentions,
          nonce: nonceFromKey(idempotencyKey),
          enforceNonce: true,
        });
        return { messageId: qualifiedId(ref, target, sent.id) };
      } catch (error) {
        throw classify(error, ref);
      }
    },
    async edit(ref: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
      const [channelId, id] = messageId.includes('/')
        ? (messageId.split('/', 2) as [string, string])
        : [ref.channelId, messageId];
      try {
        // PATCH /channels/{channel}/messages/{message}, mentions off as on a post.
        await client.rest.patch(Routes.channelMessage(channelId, id), {
          body: { embeds: renderEmbed(message).embeds, allowed_mentions: { parse: [] } },
        });
      } catch (error) {
        throw classify(error, ref);
      }
    },
    async startThread(ref, parentMessageId, name) {
      try {
        // POST /channels/{channel}/messages/{message}/threads: the thread takes the message's id.
        const thread = (await client.rest.post(Routes.threads(ref.channelId, parentMessageId), {
          body: { name: name.slice(0, maxThreadName) || 'fundbot', auto_archive_duration: 1440 },
        })) as { id: string };
        return { parentMessageId, threadId: thread.id };
      } catch (error) {
        // Opened before (a restart between opening it and storing its id): the same thread.
        if (error instanceof DiscordAPIError && error.code === threadAlreadyExists) {
          return { parentMessageId, threadId: parentMessageId };
        }
        throw classify(error, ref);
      }
    },
    async findPosted(ref, idempotencyKey, attemptStartedAt, message, thread) {
      // Inside the window a repeat with the same nonce cannot duplicate: posting again IS the check.
      if (clock.now() - attemptStartedAt < nonceWindowMs) return undefined;
      const target = targetChannelId(ref, thread);
      const nonce = nonceFromKey(idempotencyKey);
      const wanted = embedSignature(renderEmbed(message).embeds[0]);
      const me = client.user?.id;
      let after = SnowflakeUtil.generate({
        timestamp: Math.max(0, attemptStartedAt - lookMarginMs),
      }).toString();
      try {
        for (let page = 0; page < maxLookPages; page += 1) {
          const query = new URLSearchParams({ after, limit: '100' });
          const messages = (await client.rest.get(Routes.channelMessages(target), { query })) as {
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
        throw classify(error, ref);
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

/** Maps a discord.js failure to what it proves about the post. */
function classify(error: unknown, ref: ChannelRef): unknown {
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
