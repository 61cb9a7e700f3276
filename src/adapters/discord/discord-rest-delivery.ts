import { DiscordAPIError, RateLimitError, type REST, Routes, SnowflakeUtil } from 'discord.js';
import type { ChannelRef, NeutralMessage } from '../../core/index.js';
import {
  type ChannelPoster,
  ChannelUnavailableError,
  DeliveryNotPostedError,
  type ThreadTarget,
} from '../../delivery/index.js';
import { unavailableReasons } from './channel-unavailable-reasons.js';
import { nonceFromKey } from './discord-nonce.js';
import { clip } from './escape-discord.js';
import { renderEmbed } from './render-embed.js';

/** Discord: "Unknown Message". */
const unknownMessage = 10008;
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
  /** The REST timeout: a post may land until then; no look is trusted before it plus a margin. */
  readonly restTimeoutMs: number;
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
 * gateway): edit a posted notice (a correction), open a thread on a message (the daily
 * thread, a batch's names), and the platform's part of deciding a delivery in doubt.
 *
 * Doubt: inside the nonce window (`repeatSafeMs`) posting again with the same nonce is
 * the check (Discord returns the message already created); after it, a look reads the
 * bot's messages since the attempt began (GET /channels/{id}/messages?after=<snowflake
 * of the attempt start>, one page of 100 per look) and recognises the notice by its
 * nonce or, as GET does not return nonces, by its embed (title, description, footer).
 *
 * Cost: edit 1 request (PATCH), startThread 1 (POST), a look 1 (GET), and only for a
 * delivery in doubt past the nonce window.
 */
export function discordRestDelivery(
  options: DiscordRestDeliveryOptions,
): Required<Pick<ChannelPoster, 'edit' | 'remove' | 'startThread' | 'doubt' | 'threads'>> {
  const { rest } = options;
  const nonceWindowMs = options.nonceWindowMs ?? 120_000;
  return {
    threads: 'start-thread',
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
    async remove(ref, messageId) {
      const [channelId, id] = messageId.includes('/')
        ? (messageId.split('/', 2) as [string, string])
        : [ref.channelId, messageId];
      try {
        // DELETE /channels/{channel}/messages/{message}: a bot deletes its own messages without a permission.
        await rest.delete(Routes.channelMessage(channelId, id));
      } catch (error) {
        // Gone already (removed by another replica, or by a moderator): what was wanted.
        if (error instanceof DiscordAPIError && error.code === unknownMessage) return;
        throw classifyDiscordError(error, ref);
      }
    },
    async startThread(ref, parentMessageId, name) {
      try {
        // POST /channels/{channel}/messages/{message}/threads: the thread takes the message's id.
        const thread = (await rest.post(Routes.threads(ref.channelId, parentMessageId), {
          body: { name: clip(name, maxThreadName) || 'fundbot', auto_archive_duration: 1440 },
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
    doubt: {
      settleMs: discordInDoubtSettleMs(options.restTimeoutMs),
      repeatSafeMs: nonceWindowMs,
      // A late landing after a repeat is deduped by the nonce only inside Discord's window, which is short and
      // undocumented: a repeat is watched this long (a look every 3 s; MESSAGE_CREATE at once) for a copy.
      lateLandingMs: 90_000,
      markOf: nonceFromKey,
      // GET messages of a channel: a generous per-channel bucket; a look every 3 s (2 s and the budget's 1 s
      // spacing) is far inside it. Without the gateway (HTTP interactions, replicas) the watch's looks are the only
      // witness of a late copy, which stands until the next one: at 6 s it stood past the 5 s a reader may see
      // two (deliveryFaults.lateAnswers: 5.8 s); at 3 s it stands about 3 s at most.
      lookBudget: (ref, thread) => ({ scope: `discord:${targetChannelId(ref, thread)}`, intervalMs: 2_000 }),
      async look(ref, request, thread) {
        const target = targetChannelId(ref, thread);
        // A delivery may be wanted as more than one rendering (a repeat says it is late): any of them matches.
        const wanted = new Map<string, { nonce: string; embeds: Set<string | undefined> }>();
        for (const w of request.wanted) {
          const entry = wanted.get(w.key) ?? { nonce: nonceFromKey(w.key), embeds: new Set() };
          entry.embeds.add(embedSignature(renderEmbed(w.message).embeds[0]));
          wanted.set(w.key, entry);
        }
        const after =
          request.cursor ?? SnowflakeUtil.generate({ timestamp: Math.max(0, request.from) }).toString();
        try {
          const me = await options.botUserId();
          const query = new URLSearchParams({ after, limit: '100' });
          const messages = (await rest.get(Routes.channelMessages(target), { query })) as {
            id: string;
            nonce?: string | number;
            author?: { id?: string };
            embeds?: unknown[];
          }[];
          const found = new Map<string, string>();
          const copies: { key: string; messageId: string }[] = [];
          for (const m of messages) {
            if (m.author?.id !== me) continue;
            const signature = embedSignature(m.embeds?.[0]);
            for (const [key, w] of wanted) {
              if (String(m.nonce ?? '') !== w.nonce && !w.embeds.has(signature)) continue;
              found.set(key, qualifiedId(ref, target, m.id));
              copies.push({ key, messageId: qualifiedId(ref, target, m.id) });
            }
          }
          if (messages.length < 100)
            return { found, copies, covered: { from: request.from, to: request.to } };
          // Oldest first from `after`: the next look continues after the newest of this page.
          const newest = messages.reduce((max, m) => (BigInt(m.id) > BigInt(max) ? m.id : max), after);
          const newestAt = Number(SnowflakeUtil.timestampFrom(newest));
          return {
            found,
            copies,
            covered: { from: request.from, to: Math.min(request.to, newestAt) },
            cursor: newest,
          };
        } catch (error) {
          throw classifyDiscordError(error, ref);
        }
      },
    },
  };
}

/** What identifies a notice's embed when the nonce is not returned. */
function embedSignature(embed: unknown): string | undefined {
  if (!embed || typeof embed !== 'object') return undefined;
  const e = embed as { title?: unknown; description?: unknown; footer?: { text?: unknown } };
  return JSON.stringify([e.title ?? null, e.description ?? null, e.footer?.text ?? null]);
}

/** Maps a discord.js failure to what it proves about a post: held (no access), refused before anything was created, or in doubt. */
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
    const reason = error.status === 401 ? 'token-revoked' : unavailableReasons.get(error.code);
    if (reason) return new ChannelUnavailableError(ref, reason, undefined, { cause: error });
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
