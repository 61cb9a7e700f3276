import type { Clock } from '../lib/clock.js';

/**
 * One timer for the whole pipeline: every lane, batch and re-check asks to be woken
 * at an epoch ms of the injected clock, and this keeps a single sleep on the clock for
 * the earliest of them (tests and benchmarks advance a virtual clock; nothing else
 * sleeps). A wake-up runs its callback once; asking again re-arms it.
 */
export class Wakeups {
  readonly #clock: Clock;
  readonly #due = new Map<string, { at: number; run: () => void }>();
  #sleeping: { at: number; controller: AbortController } | undefined;
  #stopped = false;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Runs `run` at `at` (or soon after), replacing an earlier request under the same name. */
  at(name: string, at: number, run: () => void): void {
    if (this.#stopped) return;
    const current = this.#due.get(name);
    // An earlier request under the name stays: waking early is harmless, late is not.
    if (current && current.at <= at) return;
    this.#due.set(name, { at, run });
    this.#arm();
  }

  cancel(name: string): void {
    this.#due.delete(name);
  }

  /** The earliest pending wake-up (epoch ms), or undefined. */
  get next(): number | undefined {
    let next: number | undefined;
    for (const { at } of this.#due.values()) next = next === undefined ? at : Math.min(next, at);
    return next;
  }

  stop(): void {
    this.#stopped = true;
    this.#due.clear();
    this.#sleeping?.controller.abort(new Error('wake-ups stopped'));
    this.#sleeping = undefined;
  }

  #arm(): void {
    const next = this.next;
    if (next === undefined) return;
    if (this.#sleeping && this.#sleeping.at <= next) return;
    this.#sleeping?.controller.abort(new Error('re-armed earlier'));
    const controller = new AbortController();
    const sleeping = { at: next, controller };
    this.#sleeping = sleeping;
    this.#clock.sleep(Math.max(0, next - this.#clock.now()), controller.signal).then(
      () => {
        if (this.#sleeping === sleeping) this.#sleeping = undefined;
        this.#fire();
      },
      () => {
        if (this.#sleeping === sleeping) this.#sleeping = undefined;
      },
    );
  }

  #fire(): void {
    const now = this.#clock.now();
    for (const [name, entry] of [...this.#due]) {
      if (entry.at > now) continue;
      this.#due.delete(name);
      entry.run();
    }
    this.#arm();
  }
}
