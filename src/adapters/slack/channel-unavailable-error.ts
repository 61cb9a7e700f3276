/**
 * The channel cannot take messages and retrying will not help (deleted or archived,
 * the bot was removed, the workspace uninstalled the app or revoked the token).
 * The outbox should stop retrying and report/disable the subscription.
 *
 * Defined here because src/core exports no such error yet; recognisable by `name`
 * and `code` so the outbox can test for it without importing an adapter.
 */
export class ChannelUnavailableError extends Error {
  override readonly name = 'ChannelUnavailableError';
  readonly code = 'channel_unavailable';
  readonly platform = 'slack';

  constructor(
    /** Slack's error code, e.g. `channel_not_found`. */
    readonly reason: string,
    readonly channelId: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Slack channel ${channelId} is unavailable (${reason}): invite fundbot to the channel (/invite @fundbot) or remove the subscription; for invalid_auth check FUNDBOT_SLACK_BOT_TOKEN`,
      options,
    );
  }
}

/** Slack error codes after which a retry cannot succeed. */
export const unavailableChannelErrors: ReadonlySet<string> = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'account_inactive',
  'invalid_auth',
  'token_revoked',
]);
