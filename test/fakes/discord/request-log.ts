/**
 * The fake Discord's log of REST calls: every request in order, when each came
 * (for rate-limit timing), and waits for a request that has come or is still to come.
 */
import type { RecordedRequest } from './recorded-request.js';

export interface RequestLog {
  readonly requests: readonly RecordedRequest[];
  /** Epoch ms of every request, in order. */
  readonly requestTimes: readonly number[];
  record(request: RecordedRequest): void;
  /** Resolves with the first recorded request (past or future) that matches. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedRequest>;
}

interface Waiter {
  readonly predicate: (request: RecordedRequest) => boolean;
  readonly resolve: (request: RecordedRequest) => void;
}

export function createRequestLog(): RequestLog {
  const requests: RecordedRequest[] = [];
  const requestTimes: number[] = [];
  const waiters = new Set<Waiter>();

  return {
    requests,
    requestTimes,
    record(request) {
      requestTimes.push(Date.now());
      requests.push(request);
      for (const waiter of waiters) {
        if (waiter.predicate(request)) {
          waiters.delete(waiter);
          waiter.resolve(request);
        }
      }
    },
    // 15 s by default, as waitUntil: a deadline, not a pace (5 s is tight for a bot on the loaded 2-core machine).
    waitForRequest(predicate, timeoutMs = 15_000) {
      const seen = requests.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (request) => {
            clearTimeout(timer);
            resolve(request);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`fake Discord: no matching request within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
  };
}
