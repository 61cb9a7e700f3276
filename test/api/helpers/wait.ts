import type { ManualClock } from '../../../src/lib/clock.js';

/**
 * Waits (in real time, briefly) until `count` sleepers are parked on the clock:
 * the client is then inside a Retry-After or backoff wait and the test can advance time.
 */
export async function parkedOn(clock: ManualClock, count = 1): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (clock.pendingSleepers >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`expected ${count} sleeper(s) on the ManualClock, found ${clock.pendingSleepers}`);
}

/** Lets pending I/O callbacks run without advancing virtual time. */
export function settle(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
