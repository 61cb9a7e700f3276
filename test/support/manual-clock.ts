import type { Clock } from '../../src/lib/clock.js';

interface Sleeper {
  readonly wakeAt: number;
  readonly resolve: () => void;
}

interface SleeperWaiter {
  readonly count: number;
  readonly resolve: () => void;
}

/**
 * A clock that moves only when told to: the test double of {@link Clock}, for
 * tests and the benchmark (it used to ship in src/lib; production never uses it).
 *
 * - `advance(ms)` / `set(ms)` move time and wake every sleeper whose time has come.
 * - With `autoAdvance`, `sleep(ms)` itself jumps the clock forward, which suits a
 *   single-threaded simulation (the benchmark) where nobody else would advance it.
 */
export class ManualClock implements Clock {
  #now: number;
  readonly #autoAdvance: boolean;
  #sleepers: Sleeper[] = [];
  #sleeperWaiters: SleeperWaiter[] = [];

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
      // Like systemClock: the abort listener goes when the sleep ends, so a long-lived signal
      // (a live scenario's, a loop's) does not collect one listener per sleep.
      const onAbort = () => {
        this.#sleepers = this.#sleepers.filter((s) => s !== sleeper);
        reject(signal?.reason);
      };
      const sleeper: Sleeper = {
        wakeAt: this.#now + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      this.#sleepers.push(sleeper);
      this.#wakeSleeperWaiters();
      signal?.addEventListener('abort', onAbort, { once: true });
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

  /** Epoch ms the earliest sleeper wakes (undefined: none): a simulation's next step. */
  get nextWakeAt(): number | undefined {
    let next: number | undefined;
    for (const s of this.#sleepers) next = next === undefined ? s.wakeAt : Math.min(next, s.wakeAt);
    return next;
  }

  /** Number of pending sleepers: lets tests wait until a component is parked on the clock. */
  get pendingSleepers(): number {
    return this.#sleepers.length;
  }

  /**
   * Resolves as soon as at least `count` sleepers are parked on the clock (at once if
   * they already are): the event a test waits for before it advances time, instead of
   * sleeping a fixed real-time interval.
   */
  untilSleepers(count = 1): Promise<void> {
    if (this.#sleepers.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#sleeperWaiters.push({ count, resolve }));
  }

  #wakeSleeperWaiters(): void {
    const ready = this.#sleeperWaiters.filter((w) => this.#sleepers.length >= w.count);
    this.#sleeperWaiters = this.#sleeperWaiters.filter((w) => this.#sleepers.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}
