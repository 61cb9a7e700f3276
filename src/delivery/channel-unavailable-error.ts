import type { ChannelRef } from '../core/index.js';

/**
 * Thrown by a {@link ChannelPoster} when posting can never succeed as things
 * stand: the channel was deleted, the bot was removed, or it lacks the right
 * to post. The notice router logs it and skips the channel instead of having
 * the outbox retry forever. Anything else a poster throws counts as retryable.
 */
export class ChannelUnavailableError extends Error {
  override readonly name = 'ChannelUnavailableError';
  constructor(
    readonly channel: ChannelRef,
    /** 'gone': deleted or the bot left; 'no-access': the bot may not post there. */
    readonly reason: 'gone' | 'no-access',
    options?: ErrorOptions,
  ) {
    super(
      `cannot post to ${channel.platform} channel ${channel.channelId} in ${channel.workspaceId}: ${
        reason === 'gone'
          ? 'the channel is gone or the bot was removed; /unsubscribe there or remove the subscription'
          : 'the bot lacks the permission to post there; grant it Send Messages / invite it to the channel'
      }`,
      options,
    );
  }
}
