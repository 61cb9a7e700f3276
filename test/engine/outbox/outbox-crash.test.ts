import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { openStore } from '../../../src/lib/store.js';
import { type EngineHarness, fundingKeyOf, runFor, startEngineHarness, step, t0 } from '../harness.js';
import { cycleUntilCut, expectEachEntryOnce, PowerCut } from '../power-cut.js';

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
    // Everything that happened while down is due at once: the first cycle reads, commits and delivers it.
    await cycleUntilCut(h, cut, inner, delivered);
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
      // At-least-once to deliver with a stable id: a repeat can only be the same event id.
      expectEachEntryOnce(delivered, entriesOf, expected, `crash at step ${n}`);
      const ids = new Set(delivered.map((e) => e.id));
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
