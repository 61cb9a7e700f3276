import { createHash } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { ChannelRef } from '../../core/index.js';
import type { LookPage, LookRequest, ThreadTarget } from '../../delivery/index.js';

/** `event_type` of the metadata every notice carries. */
export const noticeEventType = 'fundbot_notice';

/**
 * A file share (the digest's chart) cannot carry metadata: its file name carries a
 * short hash of the delivery's idempotency key instead (`chart-fb1a2b3c4d.png`), so a
 * look recognises it too.
 */
export function fileMarker(idempotencyKey: string): string {
  return `fb${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 10)}`;
}

/** Slack's limit on a block's `block_id`. */
const blockIdLimit = 255;
const blockIdPrefix = 'fundbot:';
/** A block id that names the attempt too: `fundbot.<attempt start, epoch ms>:<key>`. */
const attemptBlockId = /^fundbot\.(\d+):(.+)$/s;

/**
 * The delivery's key as the `block_id` of the message's first block, with the time its attempt began when
 * given. Message events (the witness, see src/delivery/witness.ts) carry the blocks but, as apps report, not the
 * metadata's `event_payload` unless the event type is declared in the app's manifest; the block id survives
 * everywhere a message is shown to the app. The attempt tells a late landing of an earlier attempt from its
 * repeat (src/delivery/older-attempt.ts). Without the attempt when that would pass the limit; undefined for a
 * key too long for a block id (the metadata still carries it).
 */
export function deliveryBlockId(idempotencyKey: string, attemptAt?: number): string | undefined {
  const withAttempt =
    attemptAt === undefined ? undefined : `fundbot.${Math.trunc(attemptAt)}:${idempotencyKey}`;
  if (withAttempt !== undefined && withAttempt.length <= blockIdLimit) return withAttempt;
  const id = `${blockIdPrefix}${idempotencyKey}`;
  return id.length <= blockIdLimit ? id : undefined;
}

/** The blocks with the delivery's key (and attempt) on the first one (see {@link deliveryBlockId}). */
export function markedBlocks<T extends { block_id?: string }>(
  blocks: readonly T[],
  idempotencyKey: string,
  attemptAt?: number,
): T[] {
  const blockId = deliveryBlockId(idempotencyKey, attemptAt);
  const [first, ...rest] = blocks;
  return blockId && first ? [{ ...first, block_id: blockId }, ...rest] : [...blocks];
}

/** The metadata every notice carries: its key and, when given, when its attempt began. */
export function noticeMetadata(idempotencyKey: string, attemptAt?: number) {
  return {
    event_type: noticeEventType,
    event_payload: {
      event_id: idempotencyKey,
      ...(attemptAt !== undefined ? { attempt_at: Math.trunc(attemptAt) } : {}),
    },
  };
}

/**
 * What a message of the bot carries: its metadata's key and the time its attempt began, else its first marked
 * block's (see {@link deliveryBlockId}).
 */
export function deliveryMark(message: {
  readonly metadata?: unknown;
  readonly blocks?: readonly unknown[] | undefined;
}): { readonly key: string; readonly attemptAt?: number } | undefined {
  const metadata = message.metadata as
    | { event_type?: string; event_payload?: Record<string, unknown> }
    | undefined;
  const key = metadata?.event_payload?.['event_id'];
  if (metadata?.event_type === noticeEventType && typeof key === 'string') {
    const attemptAt = metadata.event_payload?.['attempt_at'];
    return typeof attemptAt === 'number' && Number.isFinite(attemptAt) ? { key, attemptAt } : { key };
  }
  for (const block of message.blocks ?? []) {
    const id = (block as { block_id?: unknown } | null)?.block_id;
    if (typeof id !== 'string') continue;
    const withAttempt = attemptBlockId.exec(id);
    if (withAttempt?.[1] && withAttempt[2]) return { key: withAttempt[2], attemptAt: Number(withAttempt[1]) };
    if (id.startsWith(blockIdPrefix)) return { key: id.slice(blockIdPrefix.length) };
  }
  return undefined;
}

/** The fundbot delivery key a message of the bot carries: its metadata's, else its first block's id. */
export function deliveryKeyOf(message: {
  readonly metadata?: unknown;
  readonly blocks?: readonly unknown[] | undefined;
}): string | undefined {
  return deliveryMark(message)?.key;
}

/**
 * Messages per conversations.history or .replies page: Slack's maximum (and default) for
 * apps outside the Marketplace since 2025, newest first.
 */
export const historyPageLimit = 15;

export interface SlackLookOptions {
  readonly client: webApi.WebClient;
  /** Messages per page. Default {@link historyPageLimit}. */
  readonly pageSize?: number;
}

/**
 * One look at a Slack channel for the delivery pipeline's doubt resolver: ONE
 * conversations.history call (conversations.replies for a reply in a thread, which
 * history does not show) over the span, with `include_all_metadata`, the bot's own
 * messages only (its `bot_id`/user from auth.test, asked once), reporting every
 * fundbot idempotency key it shows (metadata `event_id`, or a file's marker) and the
 * span it covered. The resolver keeps what it showed in the store and spends the
 * budget (about one call a minute per workspace for apps outside the Marketplace).
 */
export function createSlackLook(options: SlackLookOptions) {
  const { client } = options;
  const pageSize = options.pageSize ?? historyPageLimit;
  let identity: Promise<{ botId?: string; userId?: string }> | undefined;

  function botIdentity() {
    identity ??= client.auth.test().then(
      (r) => ({
        ...(typeof r.bot_id === 'string' ? { botId: r.bot_id } : {}),
        ...(typeof r.user_id === 'string' ? { userId: r.user_id } : {}),
      }),
      (error: unknown) => {
        identity = undefined;
        throw error;
      },
    );
    return identity;
  }

  return async (
    channel: ChannelRef,
    request: LookRequest,
    thread: ThreadTarget | undefined,
  ): Promise<LookPage> => {
    const me = await botIdentity();
    const query = {
      channel: channel.channelId,
      oldest: slackTs(request.from),
      latest: slackTs(request.to),
      inclusive: true,
      limit: pageSize,
      include_all_metadata: true,
      ...(request.cursor ? { cursor: request.cursor } : {}),
    };
    const page = thread
      ? await client.conversations.replies({ ...query, ts: thread.parentMessageId })
      : await client.conversations.history(query);
    const markers = new Map(request.wanted.map((w) => [fileMarker(w.key), w.key]));
    const wanted = new Set(request.wanted.map((w) => w.key));
    const found = new Map<string, string>();
    const copies: { key: string; messageId: string }[] = [];
    let lowest = request.to;
    let shown = 0;
    for (const m of page.messages ?? []) {
      // conversations.replies starts every page with the parent: it says nothing about the span.
      if (!m.ts || m.ts === thread?.parentMessageId) continue;
      shown += 1;
      lowest = Math.min(lowest, Number(m.ts) * 1000);
      const mine = (me.botId && m.bot_id === me.botId) || (me.userId && m.user === me.userId);
      if (!mine) continue;
      const keys = new Set<string>();
      const key = deliveryKeyOf(m as { metadata?: unknown; blocks?: unknown[] });
      if (key !== undefined) keys.add(key);
      for (const file of (m.files ?? []) as { name?: string }[]) {
        for (const [marker, wantedKey] of markers) if (file.name?.includes(marker)) keys.add(wantedKey);
      }
      for (const k of keys) {
        found.set(k, m.ts);
        if (wanted.has(k)) copies.push({ key: k, messageId: m.ts });
      }
    }
    const cursor = page.response_metadata?.next_cursor;
    const complete = !page.has_more || !cursor;
    return {
      found,
      copies,
      covered: { from: complete ? request.from : lowest, to: request.to },
      ...(complete ? {} : { cursor }),
      shown,
    };
  };
}

/** Slack's `ts` form of an epoch-ms time. */
function slackTs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(6);
}
