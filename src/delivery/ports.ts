import type { ChannelRef, NeutralMessage } from '../core/index.js';

/** What the platform answered for a posted message. */
export interface PostReceipt {
  /**
   * The platform's id of the message: Slack `ts`, Discord message id. Opaque to the
   * core: an adapter may qualify it (Discord: `<thread id>/<message id>` for a reply in
   * a thread, which lives in the thread's own channel), and `edit` takes it back as is.
   */
  readonly messageId: string;
}

/**
 * A thread inside a channel that a message goes into instead of the channel itself
 * (the daily thread). Its ids come from the store, so a restarted process posts into
 * the same thread.
 */
export interface ThreadTarget {
  /** The thread's parent message in the channel: Slack `thread_ts`, Discord message id. */
  readonly parentMessageId: string;
  /** Discord: the thread's own channel id (a thread started on a message shares its id). */
  readonly threadId?: string;
}

/**
 * Implemented by each adapter: posts a rendered message into a channel.
 * `idempotencyKey` is derived from the event id (Discord nonce, Slack metadata).
 *
 * Errors: {@link ChannelUnavailableError} (final), {@link DeliveryNotPostedError}
 * (the answer proves nothing was posted); anything else leaves the delivery in
 * doubt, and the notice router asks {@link ChannelPoster.findPosted} before posting again.
 */
export interface ChannelPoster {
  readonly platform: ChannelRef['platform'];
  /**
   * How long after an attempt began it may still land in the channel (the post's
   * own timeout plus a margin). The router neither retries nor looks before: a
   * look taken earlier could miss a message that arrives a second later. Default 0.
   */
  readonly inDoubtSettleMs?: number;
  // Posters that cannot name the message (the console) resolve with nothing.
  post(
    channel: ChannelRef,
    message: NeutralMessage,
    idempotencyKey: string,
    /** Post as a reply in this thread of the channel (posters without threads post in the channel). */
    thread?: ThreadTarget,
    // biome-ignore lint/suspicious/noConfusingVoidType: adapters without message ids return void
  ): Promise<PostReceipt | void>;
  /**
   * Opens the thread of a posted message (Discord: Start Thread from Message; Slack
   * needs none, a reply names its parent). Idempotent: a thread that already exists
   * on the message is returned, so a restart never opens a second one.
   */
  startThread?(channel: ChannelRef, parentMessageId: string, name: string): Promise<ThreadTarget>;
  /**
   * Resolves a delivery in doubt by looking: the message carrying `idempotencyKey`
   * posted at or after `attemptStartedAt` (its receipt), or undefined when posting
   * again cannot duplicate it (it is certainly not there, or the platform dedupes
   * a repeat). Throws a retryable error when it cannot tell yet (rate limit): the
   * delivery then waits, it is never posted blind. A poster without this method
   * declares a repeat harmless.
   */
  /**
   * Replaces a message this poster posted (a correction, a batch with a name taken
   * back). Mentions stay off and text stays escaped, as in `post`. Editing to the
   * same content twice is harmless, so a retried edit needs no ledger.
   */
  edit?(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void>;
  findPosted?(
    channel: ChannelRef,
    idempotencyKey: string,
    attemptStartedAt: number,
    message: NeutralMessage,
    /** Where the post went: the look reads the thread's replies, not the channel. */
    thread?: ThreadTarget,
  ): Promise<PostReceipt | undefined>;
}
