import type { Clock } from '../lib/clock.js';
import { hintFor, RateLimitError, type RequestContext } from './errors.js';
import { parseRetryAfterMs, type RateBudget } from './rate-budget.js';
import type { RawResponse } from './transport-types.js';

/**
 * The one owner of Retry-After: per credential, the clock time before which no
 * request may be sent. A 429 pauses the credential, not only the request that
 * got it, so a wait never costs more requests; schedulers read `pausedUntil`
 * instead of keeping their own copy. One Map entry per paused credential.
 */
export class RetryAfterPauses {
  readonly #clock: Clock;
  readonly #maxRetryAfterMs: number;
  /** Credential id → clock ms before which no request with that credential may be sent. */
  readonly #until = new Map<string, number>();

  constructor(clock: Clock, maxRetryAfterMs: number) {
    this.#clock = clock;
    this.#maxRetryAfterMs = maxRetryAfterMs;
  }

  /** Clock ms until which requests with this credential wait (0 when none). */
  pausedUntil(credentialId: string): number {
    const until = this.#until.get(credentialId) ?? 0;
    return until > this.#clock.now() ? until : 0;
  }

  /** Pauses the credential until `until` (a later pause wins). */
  pause(credentialId: string, until: number): void {
    this.#until.set(credentialId, Math.max(this.#until.get(credentialId) ?? 0, until));
  }

  /**
   * Waits on the clock while the credential is paused. Throws RateLimitError without
   * sending anything when the pause is longer than the client sits through.
   */
  async waitWhilePaused(
    credentialId: string,
    context: RequestContext,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    for (;;) {
      const until = this.#until.get(credentialId);
      if (until === undefined) return;
      const wait = until - this.#clock.now();
      if (wait <= 0) {
        this.#until.delete(credentialId);
        return;
      }
      if (wait > this.#maxRetryAfterMs) {
        // The server already told us it would refuse: do not spend a request to hear it again.
        throw new RateLimitError(
          {
            status: 429,
            code: 'rate_limit_exceeded',
            description: 'still inside the Retry-After wait of an earlier response (not sent)',
            retryAfterMs: wait,
          },
          context,
          hintFor('rate_limit_exceeded', 429, context),
        );
      }
      await this.#clock.sleep(wait, signal);
    }
  }
}

/**
 * How long a 429 asks to wait: its Retry-After header, else until the reset of the
 * exhausted window the rate headers report, else one minute (the shortest window).
 */
export function retryAfterMsOf(response: RawResponse, budget: RateBudget | undefined, now: number): number {
  const header = parseRetryAfterMs(response.headers, now);
  if (header !== undefined) return header;
  if (budget && budget.minuteRemaining === 0 && budget.minuteResetAt > now) return budget.minuteResetAt - now;
  if (budget && budget.dayRemaining === 0 && budget.dayResetAt > now) return budget.dayResetAt - now;
  return 60_000;
}
