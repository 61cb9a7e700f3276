/** Failures a test injects per Web API method on the fake Slack, each for a number of calls. */
import type { LateLandingFault } from './late-landings.js';

/** What a method answers instead of success. */
export type FakeSlackFailure =
  | { readonly error: string }
  | { readonly status: 429; readonly retryAfterSeconds: number }
  | { readonly status: 500 | 502 | 503 }
  /**
   * Faults around a post that DID happen (chat.postMessage only): the message is
   * in the channel, but the answer is late (`slow`), never comes until the client
   * gives up (`hang`), the connection is dropped (`drop`), or the whole fake is
   * killed mid-request (`kill`: restart it with `restart()`).
   */
  | { readonly afterPost: 'slow'; readonly delayMs: number }
  | { readonly afterPost: 'hang' | 'drop' | 'kill' }
  /** The request hangs and NOTHING is posted (chat.postMessage only). */
  | { readonly beforePost: 'hang' }
  /** The post is taken but lands and is answered late, or the connection resets (late-landings.ts). */
  | LateLandingFault;

export interface WebApiFailures {
  /**
   * Makes `method` fail `times` times (a new failure replaces the method's old one); with `channel`, only its
   * calls for that channel (`channel` or `channel_id` argument), before any failure of the whole method.
   */
  fail(method: string, failure: FakeSlackFailure, times: number, channel?: string): void;
  clear(): void;
  /** Counts one call of `method` against its failure: the failure it gets, if any is left. */
  take(method: string, args?: Record<string, unknown>): FakeSlackFailure | undefined;
}

export function createWebApiFailures(): WebApiFailures {
  const failures = new Map<string, { failure: FakeSlackFailure; remaining: number }>();
  const use = (key: string) => {
    const injected = failures.get(key);
    if (!injected || injected.remaining <= 0) return undefined;
    injected.remaining -= 1;
    return injected.failure;
  };
  return {
    fail: (method, failure, times, channel) => {
      failures.set(channel === undefined ? method : `${method}#${channel}`, { failure, remaining: times });
    },
    clear: () => failures.clear(),
    take: (method, args) => {
      const channel = args?.['channel'] ?? args?.['channel_id'];
      return (typeof channel === 'string' ? use(`${method}#${channel}`) : undefined) ?? use(method);
    },
  };
}
