/**
 * The channel cannot take our messages (deleted, bot removed, permissions
 * revoked). Retrying will not help: the outbox should drop the delivery and the
 * subscription owner should be told, not retried forever.
 */
export class ChannelUnavailableError extends Error {
  override readonly name = 'ChannelUnavailableError';
  readonly platform = 'discord';

  constructor(
    readonly channelId: string,
    /** Discord's JSON error code (10003 Unknown Channel, 50001 Missing Access, 50013 Missing Permissions). */
    readonly code: number | string | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `Discord channel ${channelId} is unavailable (code ${code ?? 'none'}): check that the bot is still in the ` +
        'server and may view the channel, send messages, embed links and attach files there, or unsubscribe it',
      options,
    );
  }
}
