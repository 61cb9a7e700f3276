/**
 * One simulated bot process of a chaos seed (test/chaos/README.md): everything it does that the world can see
 * goes through its life, so `kill()` is a kill -9 and `pause()` a SIGSTOP without touching the code under test.
 * A dead process never takes another step: its sleeps never end, its store operations and platform requests
 * never return (one already sent still lands; its answer is lost). A paused one takes its next step after
 * `resume()`, as a stopped process does, whatever it was waiting for.
 */

import type { Lease } from '../../src/engine/lease/lease.js';
import type { Clock } from '../../src/lib/clock.js';
import type { Claims } from '../../src/lib/coordination/claims.js';
import type { KeyValueStore } from '../../src/lib/store.js';
import type { ManualClock } from '../support/manual-clock.js';

export type LifeState = 'running' | 'paused' | 'dead';

/** A store operation as a kill trigger sees it (`set` of an engine head: the commit's last write). */
export interface StoreStep {
  readonly operation: 'get' | 'set' | 'delete' | 'setIfAbsent' | 'deleteIfValue' | 'deletePrefix';
  readonly key: string;
}

const never = new Promise<never>(() => {});

export class ProcessLife {
  #state: LifeState = 'running';
  #resumed: (() => void)[] = [];
  /** Told of every store step before it happens: a kill trigger may end the process right there. */
  onStoreStep: ((step: StoreStep, phase: 'before' | 'after') => void) | undefined;

  constructor(
    readonly name: string,
    /** Which replica of the fleet (a restart of it is a new process with the same slot). */
    readonly slot: number,
  ) {}

  get state(): LifeState {
    return this.#state;
  }

  get running(): boolean {
    return this.#state === 'running';
  }

  kill(): void {
    this.#state = 'dead';
    this.#resumed = [];
  }

  pause(): void {
    if (this.#state === 'running') this.#state = 'paused';
  }

  resume(): void {
    if (this.#state !== 'paused') return;
    this.#state = 'running';
    for (const wake of this.#resumed.splice(0)) wake();
  }

  /** Resolves when the process may take its next step: at once, after a resume, or never (dead). */
  ready(): Promise<void> {
    if (this.#state === 'running') return Promise.resolve();
    if (this.#state === 'dead') return never;
    return new Promise((resolve) => this.#resumed.push(resolve));
  }

  /** Runs one step the process takes in the world: it starts when the process runs, and its end reaches it only if it still does. */
  async step<T>(work: () => Promise<T>): Promise<T> {
    await this.ready();
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await this.ready();
      throw error;
    }
    await this.ready();
    return result;
  }

  /** The world's clock as this process sees it: its timers fire only while it runs. */
  clock(world: ManualClock): Clock {
    return {
      now: () => world.now(),
      sleep: (ms, signal) => this.step(() => world.sleep(ms, signal)),
    };
  }

  /** The shared store as this process reaches it. */
  store(inner: KeyValueStore): KeyValueStore {
    const run = <T>(step: StoreStep, work: () => Promise<T>) =>
      this.step(async () => {
        this.onStoreStep?.(step, 'before');
        await this.ready();
        const result = await work();
        this.onStoreStep?.(step, 'after');
        return result;
      });
    return {
      get: (key, schema) => run({ operation: 'get', key }, () => inner.get(key, schema)),
      getMany: (keys, schema) =>
        run({ operation: 'get', key: keys[0] ?? '' }, () => inner.getMany(keys, schema)),
      set: (key, value, ttlMs) => run({ operation: 'set', key }, () => inner.set(key, value, ttlMs)),
      delete: (key) => run({ operation: 'delete', key }, () => inner.delete(key)),
      setIfAbsent: (key, value, ttlMs) =>
        run({ operation: 'setIfAbsent', key }, () => inner.setIfAbsent(key, value, ttlMs)),
      deleteIfValue: (key, expected) =>
        run({ operation: 'deleteIfValue', key }, () => inner.deleteIfValue(key, expected)),
      deletePrefix: (prefix) =>
        run({ operation: 'deletePrefix', key: prefix }, () => inner.deletePrefix(prefix)),
      close: async () => {},
    };
  }

  /** Replica claims (Redis in production) as this process reaches them. */
  claims(inner: Claims): Claims {
    return {
      claimOnce: (key, ttlMs) => this.step(() => inner.claimOnce(key, ttlMs)),
      giveBack: (key) => this.step(() => inner.giveBack(key)),
    };
  }

  /** Project leases (Redis in production) as this process reaches them; a fenced commit writes through `store`. */
  lease(inner: Lease): Lease {
    return {
      acquire: (resource, holder, ttlMs) => this.step(() => inner.acquire(resource, holder, ttlMs)),
      release: (resource, holder) => this.step(() => inner.release(resource, holder)),
      fencedCommit: (resource, token, commit, store) =>
        this.step(() => inner.fencedCommit(resource, token, commit, store)),
    };
  }
}
