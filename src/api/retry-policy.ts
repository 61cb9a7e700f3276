import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { EndpointSpec } from './endpoints.js';

/**
 * When the transport retries after a 5xx, a timeout or a connection error, and
 * how long it waits: only idempotent endpoints (the spec's GETs), at most
 * `maxRetries` times, with the one backoff (src/lib/backoff.ts) in full jitter,
 * because many clients may be retrying against the same server. Each retry
 * costs one more API request; 4xx other than 429 are never retried (spec,
 * retry behaviour), 429 is the Retry-After pauses' job.
 */
export class RetryPolicy {
  readonly #maxRetries: number;
  readonly #backoff: BackoffPolicy;
  readonly #clock: Clock;
  readonly #random: Random;

  constructor(options: {
    readonly maxRetries: number;
    readonly backoffBaseMs: number;
    readonly backoffMaxMs: number;
    readonly clock: Clock;
    readonly random: Random;
  }) {
    this.#maxRetries = options.maxRetries;
    this.#backoff = { baseMs: options.backoffBaseMs, maxMs: options.backoffMaxMs, jitter: 'full' };
    this.#clock = options.clock;
    this.#random = options.random;
  }

  /** Whether a request that has already failed `failures` times may be sent again. */
  mayRetry(endpoint: EndpointSpec, failures: number): boolean {
    return endpoint.idempotent && failures < this.#maxRetries;
  }

  /** Waits, on the injected clock, before the retry after failure number `failures` (1 = the first). */
  async waitBeforeRetry(failures: number, signal: AbortSignal | undefined): Promise<void> {
    const delay = backoffMs(this.#backoff, failures, () => this.#random.next());
    // A zero delay does not touch the clock: a virtual clock would park even a 0 ms sleep until advanced.
    if (delay > 0) await this.#clock.sleep(delay, signal);
  }
}
