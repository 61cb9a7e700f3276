import type { ManualClock } from '../../support/manual-clock.js';

/**
 * Resolves once `count` sleepers are parked on the clock: the client is then inside a
 * Retry-After or backoff wait and the test can advance time. An event, not a poll.
 */
export function parkedOn(clock: ManualClock, count = 1): Promise<void> {
  return clock.untilSleepers(count);
}
