import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { type KeyValueStore, openStore } from '../../../src/lib/store.js';
import { type EngineHarness, fundingKeyOf, runFor, startEngineHarness, step, t0 } from '../harness.js';

class Crash extends Error {
  override readonly name = 'Crash';
}

/**
 * A process that "loses power" at its n-th step, a step being a store write or
 * a delivery: that write does not happen (or that delivery does not complete)
 * and every later call fails, as if the process had died right there.
 */
class PowerCut {
  steps = 0;
  #dead = false;
  constructor(readonly at: number) {}
  tick(): void {
    if (this.#dead) throw new Crash('dead');
    this.steps += 1;
    if (this.steps === this.at) {
      this.#dead = true;
      throw new Crash(`crash at step ${this.at}`);
    }
  }
  store(inner: KeyValueStore): KeyValueStore {
    return {
      get: async (key, schema) => {
        if (this.#dead) throw new Crash('dead');
        return inner.get(key, schema);
      },
      set: async (key, value, ttl) => {
        this.tick();
        await inner.set(key, value, ttl);
      },
      delete: (key) => inner.delete(key),
      setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
      deleteIfValue: (key, expected) => inner.deleteIfValue(key, expected),
      deletePrefix: (prefix) => inner.deletePrefix(prefix),
      close: () => inner.close(),
    };
  }
}

/** The entry an event announces (what must be announced exactly once). */
function entriesOf(event: FundbotEvent): string[] {
  switch (event.type) {
    case 'supporter':
      return [event.entryKey ?? ''];
    case 'supporter-burst':
      return [...(event.entryKeys ?? [])];
    case 'wall-post':
      return [`wall:${event.postId}`];
    case 'blog-post':
      return [`blog:${event.postId}`];
    case 'milestone':
      return [`milestone:${event.percent}`];
    default:
      return [event.id];
  }
}

let dir = '';
let h: EngineHarness;
let baseline = '';
let expected: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fundbot-engine-'));
  baseline = join(dir, 'baseline.sqlite');
  const store = await openStore(`sqlite://${baseline}`);
  h = await startEngineHarness({
    store,
    project: { supporters: [{ at: t0 - 60_000, amount: 100 }] },
  });
  await step(h);
  await h.engine.stop();
  await store.close();
  // What happens while the engine is down: each must be announced exactly once by the recovery.
  const a = h.project.addSupporter({ amount: 200 }); // crosses 25%
  h.clock.advance(1_000);
  const b = h.project.addSupporter({ amount: 5 });
  const wall = h.project.addWallPost({ message: 'hello' });
  const blog = h.project.addBlogPost({ title: 'News', text: 'x', type: 'text', supporterOnly: false });
  expected = [fundingKeyOf(a), fundingKeyOf(b), `wall:${wall}`, `blog:${blog}`, 'milestone:25'].sort();
});

afterAll(async () => {
  await h.api.close();
  await h.sim.close();
  await rm(dir, { recursive: true, force: true });
});

async function recover(
  file: string,
  crashAt: number | null,
): Promise<{ delivered: FundbotEvent[]; steps: number }> {
  const delivered: FundbotEvent[] = [];
  const deliver = async (event: FundbotEvent) => {
    delivered.push(event);
  };
  let steps = 0;
  if (crashAt !== null) {
    const inner = await openStore(`sqlite://${file}`);
    const cut = new PowerCut(crashAt);
    const doomed = h.newEngine({
      store: cut.store(inner),
      deliver: async (event) => {
        cut.tick();
        delivered.push(event);
      },
    });
    try {
      // Everything that happened while down is due at once: the first cycle reads, commits and delivers it.
      await step(h, doomed);
    } catch (error) {
      if (!(error instanceof Crash)) throw error;
    }
    steps = cut.steps;
    await inner.close();
  }
  const store = await openStore(`sqlite://${file}`);
  const engine = h.newEngine({ store, deliver });
  await step(h, engine);
  await runFor(h, 60_000, engine);
  await engine.drainOutbox();
  await engine.stop();
  await store.close();
  return { delivered, steps };
}

describe('durable outbox under crashes (SQLite)', () => {
  it('a crash at every step (store write or delivery) of the recovery cycle loses no event and duplicates none', {
    timeout: 60_000,
  }, async () => {
    const clean = await recover(await copyOf('clean'), null);
    expect(clean.delivered.flatMap(entriesOf).sort()).toEqual(expected);
    // Count the steps (writes and deliveries) of a full recovery cycle, then crash at each one in turn.
    const probe = await recover(await copyOf('probe'), 10_000);
    expect(probe.steps).toBeGreaterThan(10);
    for (let n = 1; n <= probe.steps; n++) {
      const { delivered } = await recover(await copyOf(`crash-${n}`), n);
      const ids = new Set(delivered.map((e) => e.id));
      // At-least-once to deliver with a stable id: a repeat can only be the same event id.
      const perEntry = new Map<string, Set<string>>();
      for (const e of delivered)
        for (const k of entriesOf(e)) perEntry.set(k, (perEntry.get(k) ?? new Set()).add(e.id));
      expect([...perEntry.keys()].sort(), `crash at step ${n}`).toEqual(expected);
      for (const [k, eventIds] of perEntry) expect(eventIds.size, `${k} after crash at step ${n}`).toBe(1);
      expect(delivered.length - ids.size, `redeliveries after crash at step ${n}`).toBeLessThanOrEqual(1);
    }
  });

  it('a throwing deliver keeps the event for a retry with backoff, in order', async () => {
    const file = await copyOf('deliver-fails');
    const store = await openStore(`sqlite://${file}`);
    const delivered: string[] = [];
    let failures = 3;
    const engine = h.newEngine({
      store,
      deliver: async (event) => {
        if (failures-- > 0) throw new Error('chat platform down');
        delivered.push(event.id);
      },
    });
    await step(h, engine);
    expect(delivered).toEqual([]);
    await runFor(h, 10 * 60_000, engine);
    const entries = delivered.length;
    expect(entries).toBe(expected.length);
    await engine.stop();
    await store.close();
  });
});

let copies = 0;
async function copyOf(name: string): Promise<string> {
  copies += 1;
  const file = join(dir, `${name}-${copies}.sqlite`);
  await copyFile(baseline, file);
  return file;
}
