import { DeliveryNotPostedError } from '../../delivery/index.js';
import type { Clock } from '../../lib/clock.js';

/**
 * Slack's rate-limit wait, obeyed: after a 429 with `Retry-After`, the poster sends
 * no request to Slack (posts and history looks alike) until the wait is over; a
 * delivery asked for meanwhile fails at once with a {@link DeliveryNotPostedError}
 * carrying the remaining wait, and the outbox retries it later. Nothing is sent, so
 * nothing is in doubt. Costs no request and no store bytes.
 */
export interface SlackRateGate {
  /** Throws while Slack's wait lasts. */
  check(what: string): void;
  /** Records a 429's `Retry-After` (seconds). */
  pause(retryAfterSeconds: number): void;
  /** Epoch ms the current wait ends (0: none). */
  readonly pausedUntil: number;
}

export function createSlackRateGate(clock: Clock): SlackRateGate {
  let pausedUntil = 0;
  return {
    check(what) {
      const waitMs = pausedUntil - clock.now();
      if (waitMs > 0) {
        throw new DeliveryNotPostedError(
          `Slack asked to wait ${Math.ceil(waitMs / 1000)} s more (HTTP 429 Retry-After): ${what} is not sent before`,
          waitMs,
        );
      }
    },
    pause(retryAfterSeconds) {
      pausedUntil = Math.max(pausedUntil, clock.now() + Math.max(1, retryAfterSeconds) * 1000);
    },
    get pausedUntil() {
      return pausedUntil;
    },
  };
}
