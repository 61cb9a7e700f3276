import { z } from 'zod';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import type { NoticeKind } from '../../domain/events.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';

const hourMs = 3_600_000;
const times = z.array(z.number());

/**
 * The messages of a kind each channel got in the last hour, live notices and batches
 * alike: what `auto` pacing reads to decide live or batched. One small record per
 * channel and kind (`pacing/recent/<channel>/<kind>`, kept an hour), in memory after
 * the first read; written at each message so the count holds across restarts and replicas.
 */
export function createRecentMessages(store: KeyValueStore, clock: Clock) {
  const recentKey = (channel: ChannelRef, kind: NoticeKind) => `pacing/recent/${channelKey(channel)}/${kind}`;
  const recent = new Map<string, number[]>();

  async function within(channel: ChannelRef, kind: NoticeKind): Promise<number[]> {
    const key = recentKey(channel, kind);
    const known = recent.get(key) ?? (await store.get(key, times)) ?? [];
    const since = clock.now() - hourMs;
    const kept = known.filter((t) => t > since);
    recent.set(key, kept);
    return kept;
  }

  return {
    /** Messages of the kind in the channel within the last hour. */
    async count(channel: ChannelRef, kind: NoticeKind): Promise<number> {
      return (await within(channel, kind)).length;
    },

    /** Counts one message of the kind, posted now (or about to be: a retried post is still one). */
    async note(channel: ChannelRef, kind: NoticeKind): Promise<void> {
      const kept = [...(await within(channel, kind)), clock.now()];
      recent.set(recentKey(channel, kind), kept);
      await store.set(recentKey(channel, kind), kept, hourMs);
    },
  };
}

export type RecentMessages = ReturnType<typeof createRecentMessages>;
