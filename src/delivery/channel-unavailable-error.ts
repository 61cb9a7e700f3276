import type { ChannelAccessProblem, ChannelPermission, ChannelRef } from '../domain/channels.js';

/** What the operator reads in the log for each problem (the channel's users read the i18n catalog). */
const whatToDo: Readonly<Record<ChannelAccessProblem, string>> = {
  'not-member':
    'the bot is not in the channel: invite it (Slack /invite @fundbot) or give its role View Channel',
  'no-permission': 'the bot lacks a permission there: grant Send Messages (and Embed Links, Attach Files)',
  archived: 'the channel is archived: unarchive it or /unsubscribe',
  gone: 'the channel is gone or the bot left the server: /unsubscribe or remove the subscription',
  'token-revoked': "the platform refused the bot's token: reinstall the app or replace the token",
  unknown: 'the platform refused the post',
};

/**
 * Thrown by a {@link ChannelPoster} when the platform refuses a post in a way no
 * retry can change as things stand: the bot is not in the channel, lacks a
 * permission, the channel is archived or deleted, the token was revoked. The
 * pipeline marks the channel "cannot post" (shown by /subscriptions, /status and
 * /healthz), holds its notices and posts them as one catch-up when access
 * returns. Nothing is posted, so nothing is in doubt.
 */
export class ChannelUnavailableError extends Error {
  override readonly name = 'ChannelUnavailableError';
  constructor(
    readonly channel: ChannelRef,
    readonly reason: ChannelAccessProblem,
    readonly missing?: readonly ChannelPermission[],
    options?: ErrorOptions,
  ) {
    super(
      `cannot post to ${channel.platform} channel ${channel.channelId} in ${channel.workspaceId}: ${whatToDo[reason]}`,
      options,
    );
  }
}
