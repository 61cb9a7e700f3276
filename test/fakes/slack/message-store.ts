/**
 * The fake Slack's channels' messages: stamped with Slack-like `ts` on arrival,
 * listed as conversations.history (top-level messages, newest first) and
 * conversations.replies (a parent, then its thread) page by page.
 */

/** A message as the fake's channel history holds it. */
export interface FakeSlackMessage {
  readonly ts: string;
  readonly channel: string;
  readonly user: string;
  readonly bot_id?: string;
  readonly text: string;
  /** A reply's parent `ts` (a parent with replies does not carry it in this fake). */
  readonly thread_ts?: string;
  readonly metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** The Block Kit blocks it was posted with (Slack lists them too). */
  readonly blocks?: readonly unknown[];
  /** Files shared with the message (files.completeUploadExternal), as history lists them. */
  readonly files?: readonly { readonly id: string; readonly name: string; readonly title?: string }[];
  /** Set by chat.update: Slack marks an edited message with who edited it and when. */
  readonly edited?: { readonly user: string; readonly ts: string };
}

export interface MessageStoreSettings {
  /** Who chat.postMessage posts as. */
  readonly botUserId: string;
  /** The arrival clock (epoch ms). */
  readonly now: () => number;
  /** Most messages one history or replies page returns. */
  readonly pageLimit: number;
}

export interface MessageStore {
  /** Every message, per channel, oldest first. */
  readonly messages: ReadonlyMap<string, readonly FakeSlackMessage[]>;
  addMessage(message: Omit<FakeSlackMessage, 'ts'>): FakeSlackMessage;
  /** chat.postMessage's effect: the bot's message (a reply with `thread_ts`). */
  postMessage(args: Record<string, unknown>): FakeSlackMessage;
  /** chat.update's effect: the message's text and blocks replaced, its `ts` kept; undefined when not found. */
  updateMessage(args: Record<string, unknown>): FakeSlackMessage | undefined;
  /** conversations.history's answer. */
  history(args: Record<string, unknown>): Record<string, unknown>;
  /** conversations.replies's answer. */
  replies(args: Record<string, unknown>): Record<string, unknown>;
  /** Event ids (notice metadata) posted more than once in a channel. */
  duplicateEventIds(channel: string): string[];
  /** chat.delete's effect: the message leaves the channel (its replies stay, as on Slack). */
  deleteMessage(channel: string, ts: string): boolean;
  /** Messages deleted, with when (the arrival clock): how long a copy stood can be measured. */
  readonly deleted: readonly DeletedMessage[];
  /** Called with every message as it lands (message events: message-events.ts). */
  onMessage(listener: (message: FakeSlackMessage) => void): void;
}

export interface DeletedMessage {
  readonly message: FakeSlackMessage;
  readonly deletedAt: number;
}

export function createMessageStore(settings: MessageStoreSettings): MessageStore {
  const { botUserId, now, pageLimit } = settings;
  const messages = new Map<string, FakeSlackMessage[]>();
  const deleted: DeletedMessage[] = [];
  const listeners: ((message: FakeSlackMessage) => void)[] = [];
  let lastTsMicros = 0;

  /** Slack's ts: seconds.microseconds of arrival, unique per workspace. */
  function nextTs(): string {
    lastTsMicros = Math.max(lastTsMicros + 1, now() * 1000);
    return `${Math.floor(lastTsMicros / 1e6)}.${String(lastTsMicros % 1e6).padStart(6, '0')}`;
  }
  function addMessage(message: Omit<FakeSlackMessage, 'ts'>): FakeSlackMessage {
    const stored = { ...message, ts: nextTs() };
    messages.set(message.channel, [...(messages.get(message.channel) ?? []), stored]);
    for (const listener of listeners) listener(stored);
    return stored;
  }
  function postMessage(args: Record<string, unknown>): FakeSlackMessage {
    const metadata = args.metadata as FakeSlackMessage['metadata'] | undefined;
    return addMessage({
      channel: String(args.channel),
      user: botUserId,
      bot_id: 'B0BOT',
      text: String(args.text ?? ''),
      ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
      ...(typeof args.thread_ts === 'string' ? { thread_ts: args.thread_ts } : {}),
      ...(metadata ? { metadata } : {}),
    });
  }
  function updateMessage(args: Record<string, unknown>): FakeSlackMessage | undefined {
    const channel = String(args.channel);
    const all = messages.get(channel) ?? [];
    const index = all.findIndex((m) => m.ts === String(args.ts));
    const old = all[index];
    if (!old) return undefined;
    const updated: FakeSlackMessage = {
      ...old,
      text: typeof args.text === 'string' ? args.text : old.text,
      ...(Array.isArray(args.blocks) ? { blocks: args.blocks } : {}),
      edited: { user: botUserId, ts: nextTs() },
    };
    messages.set(
      channel,
      all.map((m, i) => (i === index ? updated : m)),
    );
    return updated;
  }
  /** A message as the Web API lists it: metadata only when asked for. */
  const listed =
    (withMetadata: boolean) =>
    ({ metadata, channel: _c, ...m }: FakeSlackMessage) => ({
      type: 'message',
      ...m,
      ...(withMetadata && metadata ? { metadata } : {}),
    });
  /** conversations.replies: the parent, then its replies in the range, oldest first. */
  function replies(args: Record<string, unknown>): Record<string, unknown> {
    const all = messages.get(String(args.channel)) ?? [];
    const ts = String(args.ts);
    const parent = all.find((m) => m.ts === ts);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest === undefined ? Number.POSITIVE_INFINITY : Number(args.latest);
    const limit = Math.min(pageLimit, Number(args.limit ?? 100) || 100);
    const offset = Number(args.cursor ?? 0) || 0;
    const inRange = all.filter((m) => m.thread_ts === ts && Number(m.ts) > oldest && Number(m.ts) <= latest);
    const page = inRange.slice(offset, offset + limit);
    const hasMore = inRange.length > offset + limit;
    return {
      ok: true,
      messages: [parent, ...page].map(listed(args.include_all_metadata === 'true')),
      has_more: hasMore,
      response_metadata: { next_cursor: hasMore ? String(offset + limit) : '' },
    };
  }
  function history(args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel);
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest === undefined ? Number.POSITIVE_INFINITY : Number(args.latest);
    const limit = Math.min(pageLimit, Number(args.limit ?? 100) || 100);
    const offset = Number(args.cursor ?? 0) || 0;
    // Replies live in their thread: the channel's history does not show them.
    const inRange = (messages.get(channel) ?? [])
      .filter((m) => m.thread_ts === undefined && Number(m.ts) > oldest && Number(m.ts) <= latest)
      .reverse();
    const page = inRange.slice(offset, offset + limit);
    const withMetadata = args.include_all_metadata === 'true';
    const hasMore = inRange.length > offset + limit;
    return {
      ok: true,
      messages: page.map(listed(withMetadata)),
      has_more: hasMore,
      response_metadata: { next_cursor: hasMore ? String(offset + limit) : '' },
    };
  }

  return {
    messages,
    deleted,
    onMessage: (listener) => {
      listeners.push(listener);
    },
    deleteMessage: (channel, ts) => {
      const list = messages.get(channel) ?? [];
      const gone = list.find((m) => m.ts === ts);
      if (!gone) return false;
      messages.set(
        channel,
        list.filter((m) => m !== gone),
      );
      deleted.push({ message: gone, deletedAt: now() });
      return true;
    },
    addMessage,
    postMessage,
    updateMessage,
    history,
    replies,
    duplicateEventIds: (channel) => {
      const seen = new Map<string, number>();
      for (const m of messages.get(channel) ?? []) {
        const id = m.metadata?.event_payload['event_id'];
        if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    },
  };
}
