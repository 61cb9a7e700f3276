/**
 * A process that "loses power" (kill -9) at its n-th step, a step being a store write or a delivery: that write
 * does not happen (or that delivery does not complete) and every later call fails, as if the process had died
 * right there. The crash tests of the outbox and of the state's writes cut a recovery cycle at each step in turn.
 */
import { expect } from 'vitest';
import type { FundbotEvent } from '../../src/domain/events.js';
import type { Engine } from '../../src/engine/index.js';
import type { KeyValueStore } from '../../src/lib/store.js';
import { type EngineHarness, step } from './harness.js';

export class Crash extends Error {
  override readonly name = 'Crash';
}

export class PowerCut {
  steps = 0;
  #dead = false;
  /** `at`: the step that dies (default: none, to count a whole cycle's steps). */
  constructor(readonly at: number = Number.POSITIVE_INFINITY) {}

  tick(): void {
    this.#alive();
    this.steps += 1;
    if (this.steps === this.at) {
      this.#dead = true;
      throw new Crash(`crash at step ${this.at}`);
    }
  }

  /** `inner` as the dying process sees it: its writes are steps; nothing answers once it is dead. */
  store(inner: KeyValueStore): KeyValueStore {
    return {
      get: async (key, schema) => {
        this.#alive();
        return inner.get(key, schema);
      },
      getMany: async (keys, schema) => {
        this.#alive();
        return inner.getMany(keys, schema);
      },
      set: async (key, value, ttl) => {
        this.tick();
        await inner.set(key, value, ttl);
      },
      delete: async (key) => {
        this.#alive();
        return inner.delete(key);
      },
      setIfAbsent: async (key, value, ttl) => {
        this.tick();
        return inner.setIfAbsent(key, value, ttl);
      },
      deleteIfValue: async (key, expected) => {
        this.#alive();
        return inner.deleteIfValue(key, expected);
      },
      deletePrefix: (prefix) => inner.deletePrefix(prefix),
      close: () => inner.close(),
    };
  }

  #alive(): void {
    if (this.#dead) throw new Crash('dead');
  }
}

/**
 * One cycle of a new engine of `h` over `inner`, cut by `cut`: it delivers into `delivered` until it dies. The
 * crash ends the cycle as a killed process ends; any other error fails the test. Returns the (dead) engine.
 */
export async function cycleUntilCut(
  h: EngineHarness,
  cut: PowerCut,
  inner: KeyValueStore,
  delivered: FundbotEvent[],
): Promise<Engine> {
  const doomed = h.newEngine({
    store: cut.store(inner),
    deliver: async (event) => {
      cut.tick();
      delivered.push(event);
    },
  });
  try {
    await step(h, doomed);
  } catch (error) {
    if (!(error instanceof Crash)) throw error;
  }
  return doomed;
}

/**
 * Every one of `expected`'s entries, and no other, announced by one event id (a repeat can only be the same
 * event); `entriesOf` names the entries an event announces, `label` the crash in the failure message.
 */
export function expectEachEntryOnce(
  delivered: readonly FundbotEvent[],
  entriesOf: (event: FundbotEvent) => readonly string[],
  expected: readonly string[],
  label: string,
): void {
  const perEntry = new Map<string, Set<string>>();
  for (const event of delivered)
    for (const entry of entriesOf(event))
      perEntry.set(entry, (perEntry.get(entry) ?? new Set()).add(event.id));
  expect([...perEntry.keys()].sort(), label).toEqual(expected);
  for (const [entry, ids] of perEntry) expect(ids.size, `${entry} after ${label}`).toBe(1);
}
