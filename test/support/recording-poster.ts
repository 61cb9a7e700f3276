import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef } from '../../src/core/ports.js';
import type { ChannelPoster } from '../../src/delivery/ports.js';

export interface RecordedPost {
  readonly channel: ChannelRef;
  readonly message: NeutralMessage;
  readonly idempotencyKey: string;
}

/**
 * A {@link ChannelPoster} that records what it was asked to post. `failFor`
 * makes posts to one channel throw (a retryable error, or a
 * ChannelUnavailableError) until cleared.
 */
export class RecordingPoster implements ChannelPoster {
  readonly posts: RecordedPost[] = [];
  /** Every attempt, including failed ones. */
  readonly attempts: RecordedPost[] = [];
  readonly #failures = new Map<string, (channel: ChannelRef) => unknown>();

  constructor(readonly platform: ChannelRef['platform']) {}

  failFor(channelId: string, makeError: (channel: ChannelRef) => unknown): this {
    this.#failures.set(channelId, makeError);
    return this;
  }

  clearFailure(channelId: string): this {
    this.#failures.delete(channelId);
    return this;
  }

  async post(channel: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<void> {
    const record = { channel, message, idempotencyKey };
    this.attempts.push(record);
    const fail = this.#failures.get(channel.channelId);
    if (fail) throw fail(channel);
    this.posts.push(record);
  }

  postsTo(channelId: string): RecordedPost[] {
    return this.posts.filter((p) => p.channel.channelId === channelId);
  }
}

/** A logger fake that keeps what it was told (the `warn` and `error` of the Logger port, as CoreLogger). */
export class RecordingLogger {
  readonly records: { level: 'warn' | 'error'; details: Record<string, unknown>; message: string }[] = [];
  warn(details: object | string, message?: string): void {
    this.#record('warn', details, message);
  }
  error(details: object | string, message?: string): void {
    this.#record('error', details, message);
  }
  #record(level: 'warn' | 'error', details: object | string, message = ''): void {
    this.records.push(
      typeof details === 'string'
        ? { level, details: {}, message: details }
        : { level, details: details as Record<string, unknown>, message },
    );
  }
}
