import { type ChannelRef, channelKey } from '../domain/channels.js';
import type { LaneItem } from './lane-item.js';

/**
 * Scheduled posts (a day's digest) refused because the bot cannot post in the channel: kept here and queued
 * again the moment it can (the access watch's catch-up), rather than at the scheduler's next hourly check. The
 * lane still gives one up past its `giveUpAt` (a day's digest the next day would be stale). Kept in memory: a
 * restarted process's digest run asks again at its start.
 *
 * Cost: one entry per (scheduled post, channel) while the channel is closed to the bot.
 */
export function createAwaitingAccess(enqueue: (channel: ChannelRef, item: LaneItem) => void) {
  const parked = new Map<string, Map<string, LaneItem>>();
  return {
    park(item: LaneItem): void {
      const key = channelKey(item.key.channel);
      const items = parked.get(key) ?? new Map<string, LaneItem>();
      items.set(item.idempotencyKey, item);
      parked.set(key, items);
    },
    /** The bot can post in the channel again. */
    resume(channel: ChannelRef): void {
      const key = channelKey(channel);
      const items = parked.get(key);
      parked.delete(key);
      for (const item of items?.values() ?? []) enqueue(channel, item);
    },
  };
}
