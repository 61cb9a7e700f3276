import { afterOn, type Clock, systemClock } from './clock.js';
import type { KeyValueStore } from './store-port.js';
import { StoredValueError } from './store-value.js';

const storeFailures = new WeakSet<object>();

/** Marks an error thrown by a failing store (a non-object is wrapped first), so callers can tell it apart. */
function markStoreFailure(error: unknown): object {
  const marked = error !== null && typeof error === 'object' ? error : new Error(String(error));
  storeFailures.add(marked);
  return marked;
}

/**
 * True for an error that came out of a failing store (it threw or timed out), through an
 * {@link observedStore}: the command core answers those with "the store is down; nothing is lost"
 * instead of a generic failure. A value failing its schema is not one (the store answered).
 */
export function isStoreFailure(error: unknown): boolean {
  if (error instanceof StoreTimeoutError) return true;
  return error !== null && typeof error === 'object' && storeFailures.has(error);
}

/** The store did not answer within {@link ObservedStoreOptions.timeoutMs}. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  constructor(
    readonly operation: StoreOperation,
    readonly timeoutMs: number,
  ) {
    super(`the store did not answer a ${operation} within ${timeoutMs} ms`);
  }
}

export type StoreOperation = 'get' | 'set' | 'delete';

/** The outcome of one store operation, for health and logs. Carries no key and no value. */
export interface StoreOutcome {
  readonly operation: StoreOperation;
  /** False when the store threw or timed out; a value failing its schema still counts as answered. */
  readonly ok: boolean;
  readonly durationMs: number;
  readonly error?: unknown;
}

export interface ObservedStoreOptions {
  /** Longest wait for one operation (default 5 s): a Redis that is not there fails fast instead of hanging. */
  readonly timeoutMs?: number;
  /**
   * Longest wait while the store is failing (from a failed operation until one succeeds; default 1 s):
   * during an outage a command learns it within Slack's 3 s acknowledgement and Discord's deferral,
   * instead of waiting `timeoutMs` per read. Every operation still tries the store, so the first one
   * that succeeds ends the outage.
   */
  readonly failingTimeoutMs?: number;
  readonly clock?: Clock;
  /** Called after every operation, success or failure. Must not throw. */
  readonly onOutcome: (outcome: StoreOutcome) => void;
}

/**
 * Wraps a store so every operation is bounded in time and reports its outcome:
 * the health endpoint and the error log are built on these outcomes. A timed-out
 * operation rejects with {@link StoreTimeoutError}; the callers (the engine)
 * already treat a failed read or write as a crash before it, so nothing is
 * skipped. Costs nothing in store bytes or requests.
 */
export function observedStore(inner: KeyValueStore, options: ObservedStoreOptions): KeyValueStore {
  const healthyTimeoutMs = options.timeoutMs ?? 5_000;
  const failingTimeoutMs = Math.min(healthyTimeoutMs, options.failingTimeoutMs ?? 2_000);
  const clock = options.clock ?? systemClock;
  let failing = false;
  // What an operation's end says: the store answered (a value failing its schema counts), or it is failing.
  const answered = (operation: StoreOperation, startedAt: number): void => {
    failing = false;
    options.onOutcome({ operation, ok: true, durationMs: clock.now() - startedAt });
  };
  const failed = (operation: StoreOperation, startedAt: number, error: unknown): unknown => {
    // A stored value failing its schema is a data problem: the store itself answered.
    const ok = error instanceof StoredValueError;
    failing = !ok;
    options.onOutcome({ operation, ok, durationMs: clock.now() - startedAt, ...(ok ? {} : { error }) });
    return ok ? error : markStoreFailure(error);
  };
  const after = afterOn(clock);
  // One timer per operation, cleared when it settles. A replica makes about 30,000 operations to its first polls;
  // with an AbortController, a sleep and a race each, the bound cost 11-12 us of CPU per operation on the system
  // clock (memory store, 48 at once: 400-450 ms per 30,000 against 65-95 ms bare).
  const run = <T>(operation: StoreOperation, call: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const startedAt = clock.now();
      const timeoutMs = failing ? failingTimeoutMs : healthyTimeoutMs;
      let done = false;
      const succeed = (result: T) => {
        if (done) return;
        done = true;
        stopTimer();
        answered(operation, startedAt);
        resolve(result);
      };
      const fail = (error: unknown) => {
        if (done) return;
        done = true;
        stopTimer();
        reject(failed(operation, startedAt, error));
      };
      const stopTimer = after(timeoutMs, () => fail(new StoreTimeoutError(operation, timeoutMs)));
      let pending: Promise<T>;
      try {
        pending = call();
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(succeed, fail);
    });
  return {
    get: (key, schema) => run('get', () => inner.get(key, schema)),
    // One bound for the whole call: callers keep it to a few batches (the store marker: GET_MANY_BATCH keys a call).
    getMany: (keys, schema) => run('get', () => inner.getMany(keys, schema)),
    set: (key, value, ttlMs) => run('set', () => inner.set(key, value, ttlMs)),
    delete: (key) => run('delete', () => inner.delete(key)),
    // Health knows three kinds: a set-if-absent is a write, a conditional or prefix delete a delete.
    setIfAbsent: (key, value, ttlMs) => run('set', () => inner.setIfAbsent(key, value, ttlMs)),
    deleteIfValue: (key, expected) => run('delete', () => inner.deleteIfValue(key, expected)),
    deletePrefix: (prefix, containing) => run('delete', () => inner.deletePrefix(prefix, containing)),
    ...(inner.sweepExpired ? { sweepExpired: inner.sweepExpired.bind(inner) } : {}),
    close: () => inner.close(),
  };
}
