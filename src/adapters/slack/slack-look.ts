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
    const found = new Map<string, string>();
    let lowest = request.to;
    let shown = 0;
    for (const m of page.messages ?? []) {
      // conversations.replies starts every page with the parent: it says nothing about the span.
      if (!m.ts || m.ts === thread?.parentMessageId) continue;
      shown += 1;
      lowest = Math.min(lowest, Number(m.ts) * 1000);
      const mine = (me.botId && m.bot_id === me.botId) || (me.userId && m.user === me.userId);
      if (!mine) continue;
      const metadata = m.metadata as
        | { event_type?: string; event_payload?: Record<string, unknown> }
        | undefined;
      const key = metadata?.event_payload?.['event_id'];
      if (metadata?.event_type === noticeEventType && typeof key === 'string') found.set(key, m.ts);
      for (const file of (m.files ?? []) as { name?: string }[]) {
        for (const [marker, wantedKey] of markers)
          if (file.name?.includes(marker)) found.set(wantedKey, m.ts);
      }
    }
    const cursor = page.response_metadata?.next_cursor;
    const complete = !page.has_more || !cursor;
    return {
      found,
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
