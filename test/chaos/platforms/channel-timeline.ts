/**
 * What a channel showed, and when: every message (top level or in a thread of the channel) with the text it
 * showed from the moment it appeared, changed or went. The chaos judge reads the channel as it stands
 * at the end and how long any name stood twice at once. Ground truth: it watches the platform model, never the
 * bot.
 */
/** What a message is for, as its reader sees it. */
export type MessageRole = 'notice' | 'thread-parent' | 'digest';

export interface ShownMessage {
  readonly id: string;
  /** The channel as the judge counts it: a Discord thread counts in the channel it was opened in. */
  readonly channel: string;
  /** What it shows now: every visible string, one a line. */
  readonly text: string;
  readonly role: MessageRole;
  /** When it first appeared (the platform's time). */
  readonly at: number;
}

export interface TimelineEvent {
  readonly at: number;
  readonly channel: string;
  readonly id: string;
  readonly change: 'added' | 'edited' | 'removed';
  /** What it shows after the change (nothing once removed). */
  readonly text: string;
  readonly role: MessageRole;
}

/** Every string a reader sees in a stored message (text, blocks, embeds, file titles), metadata left out. */
export function visibleStrings(value: unknown, key = ''): string[] {
  if (key === 'metadata' || key === 'nonce') return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => visibleStrings(v));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => visibleStrings(v, k));
  }
  return [];
}

export function roleOf(text: string): MessageRole {
  if (text.includes('🎉 Supporters on')) return 'thread-parent';
  if (text.includes('Daily digest:')) return 'digest';
  return 'notice';
}

export class ChannelTimeline {
  readonly events: TimelineEvent[] = [];
  readonly #shown = new Map<string, ShownMessage>();
  /** Per platform channel, the list last seen (the fake Slack replaces a channel's list on every change). */
  readonly #lastLists = new Map<string, readonly object[]>();
  readonly #lastItems = new Map<string, Map<string, object>>();

  /** The messages now, per judged channel. */
  current(): Map<string, ShownMessage[]> {
    const byChannel = new Map<string, ShownMessage[]>();
    for (const m of this.#shown.values()) byChannel.set(m.channel, [...(byChannel.get(m.channel) ?? []), m]);
    return byChannel;
  }

  /** A message appeared or changed (`message` as the platform stores it). */
  record(at: number, channel: string, id: string, message: unknown): void {
    const text = visibleStrings(message).join('\n');
    const before = this.#shown.get(id);
    const role = before?.role ?? roleOf(text);
    this.#shown.set(id, { id, channel, text, role, at: before?.at ?? at });
    this.events.push({ at, channel, id, change: before ? 'edited' : 'added', text, role });
  }

  remove(at: number, id: string): void {
    const before = this.#shown.get(id);
    if (!before) return;
    this.#shown.delete(id);
    this.events.push({ at, channel: before.channel, id, change: 'removed', text: '', role: before.role });
  }

  /**
   * Compares a platform's stored lists (per channel id, messages with an `id` or a `ts`) with what was seen
   * last, and records the differences. `judgedChannel` maps a platform channel to the channel it counts in.
   */
  observe(
    at: number,
    platform: string,
    lists: ReadonlyMap<string, readonly object[]>,
    judgedChannel: (channelId: string) => string = (id) => id,
  ): void {
    for (const [channelId, list] of lists) {
      const key = `${platform}:${channelId}`;
      if (this.#lastLists.get(key) === list) continue;
      this.#lastLists.set(key, list);
      const before = this.#lastItems.get(key) ?? new Map<string, object>();
      const now = new Map<string, object>();
      for (const item of list) {
        const id = String((item as { ts?: unknown; id?: unknown }).ts ?? (item as { id?: unknown }).id);
        now.set(id, item);
        if (before.get(id) !== item)
          this.record(at, `${platform}:${judgedChannel(channelId)}`, `${key}/${id}`, item);
      }
      for (const id of before.keys()) if (!now.has(id)) this.remove(at, `${key}/${id}`);
      this.#lastItems.set(key, now);
    }
  }
}
