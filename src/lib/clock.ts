/**
 * Time is injected everywhere so that tests and the benchmark can run a whole
 * campaign day on a virtual clock against real local servers.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Optional: calls `onTime` after `ms` of this clock's time unless the returned function was called first.
   * A bound that is almost always cancelled (the store bounds every operation, store-observed.ts) costs an
   * AbortController, its listener and an abort event per use when made of `sleep`; a clock without it gets that
   * ({@link afterOn}).
   */
  after?(ms: number, onTime: () => void): () => void;
}

/** Real time. Tests and the benchmark use a virtual clock instead (test/support/manual-clock.ts). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  after: (ms, onTime) => {
    const timer = setTimeout(onTime, ms);
    return () => clearTimeout(timer);
  },
};

/** Why a timer made of `sleep` stops: one shared reason (an Error per timer cost its stack trace each time). */
const cancelled = new Error('timer cancelled');

/**
 * `clock.after`, or the same made of `clock.sleep` for a clock without it (the tests' virtual clocks): the one way
 * to set a cancellable timer on any clock.
 */
export function afterOn(clock: Clock): NonNullable<Clock['after']> {
  if (clock.after) return clock.after.bind(clock);
  return (ms, onTime) => {
    const timer = new AbortController();
    clock.sleep(ms, timer.signal).then(onTime, () => {});
    return () => timer.abort(cancelled);
  };
}
