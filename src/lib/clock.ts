/**
 * Time is injected everywhere so that tests and the benchmark can run a whole
 * campaign day on a virtual clock against real local servers.
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

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
};

interface Sleeper {
  readonly wakeAt: number;
  readonly resolve: () => void;
}

/**
 * A clock that moves only when told to.
 *
 * - `advance(ms)` / `set(ms)` move time and wake every sleeper whose time has come.
 * - With `autoAdvance`, `sleep(ms)` itself jumps the clock forward, which suits a
 *   single-threaded simulation (the benchmark) where nobody else would advance it.
 */
export class ManualClock implements Clock {
  #now: number;
  readonly #autoAdvance: boolean;
  #sleepers: Sleeper[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1), options: { autoAdvance?: boolean } = {}) {
    this.#now = startMs;
    this.#autoAdvance = options.autoAdvance ?? false;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#autoAdvance) {
      this.#now += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { wakeAt: this.#now + Math.max(0, ms), resolve };
      this.#sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  advance(ms: number): void {
    this.set(this.#now + ms);
  }

  set(ms: number): void {
    this.#now = Math.max(this.#now, ms);
    const due = this.#sleepers.filter((s) => s.wakeAt <= this.#now).sort((a, b) => a.wakeAt - b.wakeAt);
    this.#sleepers = this.#sleepers.filter((s) => s.wakeAt > this.#now);
    for (const sleeper of due) sleeper.resolve();
  }

  /** Number of pending sleepers: lets tests wait until a component is parked on the clock. */
  get pendingSleepers(): number {
    return this.#sleepers.length;
  }
}
