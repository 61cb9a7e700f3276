/**
 * Channels, as every layer names them: where a notice goes, its stable key, and whether the bot can post there.
 * The core, the delivery pipeline and the adapters share this vocabulary (issue 31: one vocabulary for channels).
 */

/** Where a notice goes. */
export interface ChannelRef {
  readonly platform: 'discord' | 'slack' | 'console';
  /** Discord guild id or Slack team id; 'console' for the terminal. */
  readonly workspaceId: string;
  readonly channelId: string;
}

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

/**
 * Why the bot cannot post in a channel: not invited (or removed), a permission
 * missing, the channel archived or deleted, the platform token revoked, or the
 * platform could not be asked.
 */
export type ChannelAccessProblem =
  | 'not-member'
  | 'no-permission'
  | 'archived'
  | 'gone'
  | 'token-revoked'
  | 'unknown';

/** A permission the bot needs to post notices (Discord names them; Slack has none of these). */
export type ChannelPermission =
  | 'view-channel'
  | 'send-messages'
  | 'send-messages-in-threads'
  | 'embed-links'
  | 'attach-files';

export type ChannelAccessResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: ChannelAccessProblem;
      /** For 'no-permission': what to grant, when the platform says. */
      readonly missing?: readonly ChannelPermission[];
    };

/**
 * Implemented by each chat adapter: whether the bot can post notices in a channel
 * now (Slack: membership and archive state; Discord: the bot's permissions there).
 * /subscribe asks before storing anything. One platform request per call at most.
 * Never throws for a platform's "no": that is a result; it may throw when the
 * platform cannot be asked (the caller then treats it as 'unknown').
 */
export interface ChannelAccess {
  canPost(channel: ChannelRef): Promise<ChannelAccessResult>;
}
