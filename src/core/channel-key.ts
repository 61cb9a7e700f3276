import type { ChannelRef } from './ports.js';

/**
 * A stable string for a channel, used in store keys and idempotency keys.
 * Each part is URI-encoded so an id containing the separator cannot collide
 * with another channel's key.
 */
export function channelKey(channel: ChannelRef): string {
  return [channel.platform, channel.workspaceId, channel.channelId].map(encodeURIComponent).join(':');
}

/** The key of the server/workspace a channel belongs to. */
export function workspaceKey(channel: Pick<ChannelRef, 'platform' | 'workspaceId'>): string {
  return [channel.platform, channel.workspaceId].map(encodeURIComponent).join(':');
}
