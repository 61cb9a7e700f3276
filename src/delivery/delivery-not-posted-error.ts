/**
 * Thrown by a {@link ChannelPoster} when the platform's answer proves that nothing
 * was posted: a refusal before processing (HTTP 4xx, Slack `ok: false` such as
 * `ratelimited` or `msg_too_long`), a connection that was never opened, or a
 * rate-limit wait the poster obeys without sending anything. The notice router
 * clears the attempt: a retry may post freely.
 *
 * Anything else a poster throws after it may have sent the request (a timeout,
 * a reset connection, a 5xx) leaves the delivery IN DOUBT: the router then looks
 * in the channel before it posts again.
 */
export class DeliveryNotPostedError extends Error {
  override readonly name = 'DeliveryNotPostedError';
  constructor(
    message: string,
    /** The platform's wait, when it asked for one: no request to it before then. */
    readonly retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
