import type { Clock } from './clock.js';
import type { KeyValueStore } from './store-port.js';

export interface StoreSweepOptions {
  readonly store: KeyValueStore;
  readonly clock: Clock;
  /** Between two sweeps. Default one hour. */
  readonly intervalMs?: number;
  /** Most slices (of 5,000 rows each) one sweep reads. Default 40: 200,000 rows an hour at most. */
  readonly maxSlices?: number;
  /** Told what each sweep did (for a log line). Must not throw. */
  readonly onSweep?: (result: { readonly scanned: number; readonly deleted: number }) => void;
  /** Told a failed sweep (the next one tries again). Must not throw. */
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs one sweep: slices until the store wrapped around or `maxSlices` were read. A store
 * without `sweepExpired` (memory, Redis: they expire values themselves) costs nothing.
 */
export async function sweepExpiredOnce(
  store: KeyValueStore,
  now: number,
  maxSlices = 40,
): Promise<{ scanned: number; deleted: number }> {
  let scanned = 0;
  let deleted = 0;
  if (store.sweepExpired === undefined) return { scanned, deleted };
  for (let slice = 0; slice < maxSlices; slice++) {
    const result = await store.sweepExpired(now);
    scanned += result.scanned;
    deleted += result.deleted;
    if (result.wrapped) break;
  }
  return { scanned, deleted };
}

/**
 * Deletes expired values (delivery records after their 14 days, pacing marks, replay guards)
 * from a store that does not expire them by itself, once per `intervalMs` (the first sweep
 * after one interval). Bounded: each sweep reads at most `maxSlices` slices, and a large
 * store is covered over several sweeps, continuing where the last one stopped. Costs no API
 * request; on SQLite, reading up to 200,000 rows an hour.
 */
export function startStoreSweep(options: StoreSweepOptions): { stop(): void } {
  const controller = new AbortController();
  const interval = options.intervalMs ?? 3_600_000;
  if (options.store.sweepExpired === undefined) return { stop: () => {} };
  void (async () => {
    for (;;) {
      await options.clock.sleep(interval, controller.signal).catch(() => undefined);
      if (controller.signal.aborted) return;
      try {
        options.onSweep?.(await sweepExpiredOnce(options.store, options.clock.now(), options.maxSlices));
      } catch (error) {
        options.onError?.(error);
      }
    }
  })();
  return { stop: () => controller.abort(new Error('store sweep stopped')) };
}
