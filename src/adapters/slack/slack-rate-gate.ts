import { DeliveryNotPostedError } from '../../delivery/index.js';
import type { Clock } from '../../lib/clock.js';

/**
 * Slack's rate-limit waits, obeyed where they apply: after a 429 with `Retry-After`,
 * the poster sends nothing more in that limit's scope until the wait is over. Slack
 * limits chat.postMessage per channel (about one message a second each) and the
 * tiered methods per method and workspace (conversations.history, .replies,
 * chat.update, file uploads), so a scope is one of those: a 429 from one channel
 * pauses that channel only, and a look's 429 pauses looks, never posts. A delivery
 * asked for meanwhile fails at once with a {@link DeliveryNotPostedError} carrying
 * the remaining wait (its channel's lane waits that long). Nothing is sent, so
 * nothing is in doubt. Costs no request and no store bytes; one entry per scope
 * while its wait lasts.
 */
export interface SlackRateGate {
  /** Throws while Slack's wait for `scope` lasts. */
  check(scope: string, what: string): void;
  /** Records a 429's `Retry-After` (seconds) for `scope`. */
  pause(scope: string, retryAfterSeconds: number): void;
  /** Epoch ms the wait of `scope` ends (0: none). */
  pausedUntil(scope: string): number;
}

/** The scope of a method's limit: chat.postMessage per channel, the others per method (the poster is one workspace's). */
export function rateScope(method: string, channelId?: string): string {
  return method === 'chat.postMessage' && channelId !== undefined ? `${method}:${channelId}` : method;
}

export function createSlackRateGate(clock: Clock): SlackRateGate {
  const waits = new Map<string, number>();
  return {
    check(scope, what) {
      const waitMs = (waits.get(scope) ?? 0) - clock.now();
      if (waitMs > 0) {
        throw new DeliveryNotPostedError(
          `Slack asked to wait ${Math.ceil(waitMs / 1000)} s more (HTTP 429 Retry-After): ${what} is not sent before`,
          waitMs,
        );
      }
    },
    pause(scope, retryAfterSeconds) {
      const now = clock.now();
      for (const [key, until] of waits) if (until <= now) waits.delete(key);
      waits.set(scope, Math.max(waits.get(scope) ?? 0, now + Math.max(1, retryAfterSeconds) * 1000));
    },
    pausedUntil: (scope) => waits.get(scope) ?? 0,
  };
}
