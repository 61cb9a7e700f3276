/**
 * The shared store of a chaos seed and what can happen to it: an outage (every operation fails at once, as a
 * Redis that refuses connections or a disk that refuses writes) and a pause (SIGSTOP on Redis: operations wait,
 * then run when it resumes, whether or not their caller still waits; the bot's own bound turns the wait into a
 * timeout).
 */
import type { KeyValueStore } from '../../src/lib/store.js';
import type { ManualClock } from '../support/manual-clock.js';

export class StoreOutageError extends Error {
  override readonly name = 'StoreOutageError';
}

export interface StoreFaults {
  readonly store: KeyValueStore;
  /** Every operation fails until `until` (epoch ms of the world clock). */
  outage(until: number): void;
  /** Every operation waits until `until`, then runs. */
  pause(until: number): void;
  /** Windows the store was out or paused, for the judge (a notice held by the store is not a stall). */
  readonly windows: readonly { readonly from: number; readonly to: number }[];
}

export function storeWithFaults(inner: KeyValueStore, clock: ManualClock): StoreFaults {
  let outageUntil = 0;
  let pausedUntil = 0;
  const windows: { from: number; to: number }[] = [];
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    if (clock.now() < outageUntil) throw new StoreOutageError('the store is unreachable (chaos outage)');
    while (clock.now() < pausedUntil) await clock.sleep(pausedUntil - clock.now());
    return work();
  };
  return {
    store: {
      get: (key, schema) => run(() => inner.get(key, schema)),
      getMany: (keys, schema) => run(() => inner.getMany(keys, schema)),
      set: (key, value, ttlMs) => run(() => inner.set(key, value, ttlMs)),
      delete: (key) => run(() => inner.delete(key)),
      setIfAbsent: (key, value, ttlMs) => run(() => inner.setIfAbsent(key, value, ttlMs)),
      deleteIfValue: (key, expected) => run(() => inner.deleteIfValue(key, expected)),
      deletePrefix: (prefix) => run(() => inner.deletePrefix(prefix)),
      close: async () => {},
    },
    outage(until) {
      outageUntil = Math.max(outageUntil, until);
      windows.push({ from: clock.now(), to: until });
    },
    pause(until) {
      pausedUntil = Math.max(pausedUntil, until);
      windows.push({ from: clock.now(), to: until });
    },
    windows,
  };
}
