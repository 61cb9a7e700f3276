import type { webApi } from '@slack/bolt';
import type { PostReceipt } from '../../delivery/index.js';
import type { Clock } from '../../lib/clock.js';
import type { SlackRateGate } from './slack-rate-gate.js';

/** `event_type` of the metadata every notice carries. */
export const noticeEventType = 'fundbot_notice';

export interface SlackDeliveryLookupOptions {
  readonly client: webApi.WebClient;
  readonly clock: Clock;
  readonly gate: SlackRateGate;
  /** How long after its start an attempt may still land: a look taken earlier cannot clear it. */
  readonly settleMs: number;
  /**
   * Minimum time between two conversations.history calls of this bot: apps outside
   * the Marketplace get about 1 a minute (and 15 messages a page). Default 60 s.
   */
  readonly historyIntervalMs?: number;
  /** Slack's clock and ours may differ: the look starts this much before the attempt. Default 60 s. */
  readonly clockMarginMs?: number;
  /** Messages per page (Slack allows those apps 15). Default 15. */
  readonly pageSize?: number;
}

/** What one channel's looks have shown so far. */
interface ChannelView {
  /** Idempotency keys of fundbot notices seen in the channel, with their `ts`. */
  readonly found: Map<string, string>;
  /** Deliveries of this channel waiting for a look: key → attempt start. */
  readonly pending: Map<string, number>;
  /** The time span the looks have covered completely (epoch ms), if any. */
  covered?: { from: number; to: number };
  /** An unfinished look (more pages than one call returns). */
  continuation?: { cursor: string; oldest: string; latest: string; takenAt: number } | undefined;
  /** A thread's replies (conversations.replies of this parent `ts`) instead of the channel's history. */
  readonly threadTs?: string;
}

/** Thrown while a delivery in doubt waits for the next allowed look: the outbox retries it. */
export class SlackLookupPendingError extends Error {
  override readonly name = 'SlackLookupPendingError';
}

/**
 * Resolves Slack deliveries in doubt by looking at the channel: conversations.history
 * (conversations.replies for a reply in a thread, same limits)
 * since the attempt began (minus a clock margin), with `include_all_metadata`, the
 * bot's own messages only (its `bot_id`/user from auth.test), searched for the
 * notice's idempotency key in the metadata every notice carries.
 *
 * Rate: conversations.history allows about 1 call a minute, so ONE look serves every
 * delivery in doubt of a channel: the deliveries register, one call covers the span
 * from the earliest of them, and what it showed is kept for the others (found keys,
 * and the span covered, valid for attempts that had settled when it was taken). A
 * delivery that cannot be decided yet throws {@link SlackLookupPendingError} and
 * waits; it is never posted blind. A page that does not reach back far enough is
 * continued by cursor on the next allowed call.
 *
 * Cost: at most one conversations.history call per `historyIntervalMs` per bot, and
 * only when a delivery is in doubt (none in normal operation); memory: one entry per
 * channel with deliveries in doubt, no store bytes.
 */
export function createSlackDeliveryLookup(options: SlackDeliveryLookupOptions) {
  const { client, clock, gate, settleMs } = options;
  const intervalMs = options.historyIntervalMs ?? 60_000;
  const marginMs = options.clockMarginMs ?? 60_000;
  const pageSize = options.pageSize ?? 15;
  const views = new Map<string, ChannelView>();
  let nextLookAt = 0;
  let identity: Promise<{ botId?: string; userId?: string }> | undefined;

  // A thread is looked at apart from its channel: history does not show replies.
  const viewOf = (channelId: string, threadTs: string | undefined) => {
    const id = threadTs ? `${channelId}/${threadTs}` : channelId;
    let view = views.get(id);
    if (!view) {
      view = { found: new Map(), pending: new Map(), ...(threadTs ? { threadTs } : {}) };
      views.set(id, view);
    }
    return view;
  };

  /** What the looks so far say: a receipt, 'absent', or undefined when they cannot tell. */
  function decide(view: ChannelView, key: string, startedAt: number): PostReceipt | 'absent' | undefined {
    const ts = view.found.get(key);
    if (ts) return { messageId: ts };
    const c = view.covered;
    if (c && c.from <= startedAt - marginMs && c.to >= startedAt + settleMs) return 'absent';
    return undefined;
  }

  async function botIdentity() {
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

  /** One conversations.history call for the channel: the next page of an unfinished look, or a new one. */
  async function look(channelId: string, view: ChannelView): Promise<void> {
    const now = clock.now();
    const earliest = Math.min(...view.pending.values());
    const continuing =
      view.continuation && Number(view.continuation.oldest) * 1000 <= earliest - marginMs
        ? view.continuation
        : undefined;
    const oldest = continuing?.oldest ?? slackTs(earliest - marginMs);
    const latest = continuing?.latest ?? slackTs(now);
    gate.check('a look at the channel history');
    nextLookAt = now + intervalMs;
    const me = await botIdentity();
    const query = {
      channel: channelId,
      oldest,
      latest,
      inclusive: true,
      limit: pageSize,
      include_all_metadata: true,
      ...(continuing ? { cursor: continuing.cursor } : {}),
    };
    const page = view.threadTs
      ? await client.conversations.replies({ ...query, ts: view.threadTs })
      : await client.conversations.history(query);
    let lowest = Number(latest) * 1000;
    for (const m of page.messages ?? []) {
      // conversations.replies starts every page with the parent: it says nothing about the span.
      if (m.ts && m.ts !== view.threadTs) lowest = Math.min(lowest, Number(m.ts) * 1000);
      const mine = (me.botId && m.bot_id === me.botId) || (me.userId && m.user === me.userId);
      const metadata = m.metadata as
        | { event_type?: string; event_payload?: Record<string, unknown> }
        | undefined;
      const key = metadata?.event_payload?.['event_id'];
      if (mine && metadata?.event_type === noticeEventType && typeof key === 'string' && m.ts) {
        view.found.set(key, m.ts);
      }
    }
    const cursor = page.response_metadata?.next_cursor;
    const complete = !page.has_more || !cursor;
    const to = continuing?.takenAt ?? now;
    const from = complete ? Number(oldest) * 1000 : lowest;
    // Coverage is only trusted for the span read in one sweep (the first page's time down to here).
    view.covered =
      continuing && view.covered ? { from: Math.min(from, view.covered.from), to } : { from, to };
    view.continuation = complete ? undefined : { cursor, oldest, latest, takenAt: to };
  }

  return {
    /**
     * The receipt of the notice carrying `key` in the channel (or in the thread of
     * `threadTs`, by conversations.replies), or undefined when it
     * is certainly not there. Throws {@link SlackLookupPendingError} (or the rate
     * gate's error) while it cannot tell yet.
     */
    async find(
      channelId: string,
      key: string,
      attemptStartedAt: number,
      threadTs?: string,
    ): Promise<PostReceipt | undefined> {
      const view = viewOf(channelId, threadTs);
      view.pending.set(key, Math.min(view.pending.get(key) ?? attemptStartedAt, attemptStartedAt));
      let answer = decide(view, key, attemptStartedAt);
      if (answer === undefined && clock.now() >= nextLookAt) {
        await look(channelId, view);
        answer = decide(view, key, attemptStartedAt);
      }
      if (answer === undefined) {
        throw new SlackLookupPendingError(
          `delivery in doubt waits for a look at Slack channel ${channelId} (conversations.history, about 1 call a minute)`,
        );
      }
      view.pending.delete(key);
      // What a look showed serves the channel's other doubts for a while, then is let go.
      for (const [id, v] of views) {
        if (v.pending.size === 0 && (v.covered?.to ?? 0) < clock.now() - 10 * intervalMs) views.delete(id);
      }
      return answer === 'absent' ? undefined : answer;
    },
  };
}

/** Slack's `ts` form of an epoch-ms time. */
function slackTs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(6);
}
