import { describe, expect, it } from 'vitest';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { stateKeys } from '../../../src/engine/state/project-state.js';
import { readStoredState } from '../../../src/engine/state/project-state-store.js';
import { type KeyValueStore, StoredValueError } from '../../../src/lib/store.js';
import {
  announcedSupporterKeys,
  fundingKeyOf,
  initialSupporters,
  lc,
  runFor,
  step,
  useEngineHarness,
} from '../harness.js';
import { cycleUntilCut, expectEachEntryOnce, PowerCut } from '../power-cut.js';

/**
 * A durable store as JSON text in a map (what SQLite or Redis keep): copied in one line to
 * replay a crash from the same stored state, and every write is seen by `onSet`.
 */
function mapStore(
  map: Map<string, string>,
  onSet: (key: string, bytes: number) => void = () => {},
): KeyValueStore {
  return {
    async get(key, schema) {
      const text = map.get(key);
      if (text === undefined) return undefined;
      const parsed = schema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new StoredValueError(key, parsed.error.message);
      return parsed.data;
    },
    async getMany(keys, schema) {
      return Promise.all(keys.map((key) => this.get(key, schema)));
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      onSet(key, Buffer.byteLength(text));
      map.set(key, text);
    },
    async delete(key) {
      return map.delete(key);
    },
    async setIfAbsent(key, value) {
      if (map.has(key)) return false;
      map.set(key, JSON.stringify(value));
      return true;
    },
    async deleteIfValue(key, expected) {
      return map.get(key) === JSON.stringify(expected) && map.delete(key);
    },
    async deletePrefix(prefix) {
      const keys = [...map.keys()].filter((k) => k.startsWith(prefix));
      for (const k of keys) map.delete(k);
      return keys.length;
    },
    async close() {},
  };
}

const startHarness = useEngineHarness();

describe('store writes follow the change, not the list', () => {
  it('idle polls write only the head, at most every 15 minutes, at most 4 KB, whatever the list length', async () => {
    const writes: { key: string; bytes: number }[] = [];
    const map = new Map<string, string>();
    const h = await startHarness({
      store: mapStore(map, (key, bytes) => writes.push({ key, bytes })),
      project: { supporters: initialSupporters(1_000) },
    });
    await step(h);
    // Activity fills the window (500) and pushes supporters below it, into the seen-key chunks.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 120; i++)
        h.project.addSupporter({ amount: 1, at: h.clock.now() - 60_000 + i * 200 });
      h.project.addWallPost({ message: `update ${round}` });
      await runFor(h, 10 * 60_000);
    }
    const state = await readStoredState(h.store, lc);
    expect(state?.lists.fundings?.entries.length).toBeGreaterThanOrEqual(500);
    expect(state?.lists.fundings?.seen?.length).toBeGreaterThan(500); // hundreds of keys below the window
    // No stored value holds the list: the largest is a chunk or the head, a few KB.
    expect(Math.max(...writes.map((w) => w.bytes))).toBeLessThan(16_000);
    const stored = [...map.values()].reduce((sum, text) => sum + text.length, 0);
    await runFor(h, 30 * 60_000); // settles the moving averages and the history

    writes.length = 0;
    const requests = h.sim.requests.length;
    await runFor(h, 60 * 60_000); // nothing new for an hour
    const polls = h.sim.requests.length - requests;
    expect(polls).toBeGreaterThan(50);
    expect(new Set(writes.map((w) => w.key))).toEqual(new Set([`engine/${lc}/head`]));
    // Only the read times and rates changed: the head is refreshed every 15 minutes, not at every poll.
    expect(writes.length).toBeGreaterThanOrEqual(3);
    expect(writes.length).toBeLessThanOrEqual(60 / 15 + 1);
    for (const w of writes) expect(w.bytes).toBeLessThanOrEqual(4_096);
    // An idle poll writes a small fraction of what the state holds.
    expect(writes.reduce((sum, w) => sum + w.bytes, 0) / writes.length).toBeLessThan(stored / 10);
  }, 120_000);
});

describe('a head left unwritten while idle', () => {
  it('a restart after an idle stretch announces nothing again, and the next supporter once', async () => {
    const map = new Map<string, string>();
    const heads: string[] = [];
    const h = await startHarness({
      store: mapStore(map, (key) => {
        if (key === `engine/${lc}/head`) heads.push(key);
      }),
      project: { supporters: initialSupporters(30) },
    });
    await step(h);
    h.project.addSupporter({ amount: 5 });
    await runFor(h, 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toHaveLength(1);
    heads.length = 0;
    await runFor(h, 10 * 60_000); // idle: only read times and rates change
    expect(heads).toEqual([]);
    await h.engine.stop();
    h.engine = h.newEngine();
    await runFor(h, 5 * 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toHaveLength(1);
    const late = h.project.addSupporter({ amount: 7 });
    await runFor(h, 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([
      ...announcedSupporterKeys(h.recorder.events).slice(0, 1),
      fundingKeyOf(late),
    ]);
  }, 60_000);
});

describe('a commit split over several writes survives a crash between any two', () => {
  it('kill -9 at every write of a recovery cycle: each supporter announced once, the state always readable', async () => {
    const baseline = new Map<string, string>();
    const h = await startHarness({
      store: mapStore(baseline),
      project: { supporters: initialSupporters(700) },
    });
    await step(h);
    for (let i = 0; i < 30; i++) h.project.addSupporter({ amount: 1, at: h.clock.now() - 30_000 + i * 500 });
    await runFor(h, 10 * 60_000); // the window is full: a new supporter evicts one into the seen keys
    await h.engine.stop();
    // While down: 40 supporters, several of them below the window (late) and many above it.
    const added = Array.from({ length: 40 }, (_, i) =>
      h.project.addSupporter({ amount: 2, at: h.clock.now() + i * 1_000 }),
    );
    h.clock.advance(60_000);
    const expected = added.map(fundingKeyOf).sort();

    const recover = async (crashAt: number | null) => {
      const map = new Map(baseline);
      const delivered: FundbotEvent[] = [];
      const cut = new PowerCut(crashAt ?? undefined);
      const doomed = await cycleUntilCut(h, cut, mapStore(map), delivered);
      await doomed.stop().catch(() => undefined);
      const steps = cut.steps;
      // What a restart loads must always be a whole commit.
      await expect(readStoredState(mapStore(map), lc)).resolves.toBeDefined();
      const engine = h.newEngine({ store: mapStore(map), deliver: async (e) => void delivered.push(e) });
      await step(h, engine);
      await runFor(h, 60_000, engine);
      await engine.drainOutbox();
      await engine.stop();
      return { delivered, steps };
    };

    const probe = await recover(null);
    expect(announcedSupporterKeys(probe.delivered).sort()).toEqual(expected);
    // The commit that marks the 40 seen writes several values before its head: there are points in between.
    expect(probe.steps).toBeGreaterThan(8);
    for (let n = 1; n <= probe.steps; n++) {
      const { delivered } = await recover(n);
      expectEachEntryOnce(delivered, (e) => announcedSupporterKeys([e]), expected, `crash at write ${n}`);
    }
  }, 240_000);
});

describe('a state stored as one value (before the split)', () => {
  it('is loaded, announces nothing again, and is replaced by the head at the first commit', async () => {
    const map = new Map<string, string>();
    const h = await startHarness({ store: mapStore(map), project: { supporters: initialSupporters(600) } });
    await step(h);
    await h.engine.stop();
    const state = await readStoredState(h.store, lc);
    map.clear();
    map.set(stateKeys.state(lc), JSON.stringify(state));
    const zoe = h.project.addSupporter({ displayName: 'Zoe', amount: 5 });
    h.recorder.clear();
    h.engine = h.newEngine();
    await runFor(h, 5 * 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([fundingKeyOf(zoe)]);
    expect(map.has(stateKeys.state(lc))).toBe(false);
    expect(map.has(stateKeys.head(lc))).toBe(true);
    const migrated = await readStoredState(h.store, lc);
    expect(migrated?.lists.fundings?.entries.length).toBeGreaterThanOrEqual(
      state?.lists.fundings?.entries.length ?? 1,
    );
  });
});

describe('the backfill of seen keys below the first read (issue 33: a long list idle on disk)', () => {
  it('keeps its progress in memory between commits that write anyway, and a restart mid-way announces nothing', async () => {
    const map = new Map<string, string>();
    const writes: string[] = [];
    const h = await startHarness({
      store: mapStore(map, (key) => writes.push(key)),
      project: { supporters: initialSupporters(3_000) },
    });
    await step(h); // the first read: a window, the rest below it not yet in `seen`
    const first = await readStoredState(h.store, lc);
    expect(first?.lists.fundings?.seenFrom).toBeGreaterThan(0);
    writes.length = 0;
    await runFor(h, 3 * 60_000); // idle: each fundings read backfills a page of seen keys
    // Every read before changed a seen chunk, the index and the head; now nothing is written while only
    // the backfill moves (it counts those keys as seen whether stored or not).
    expect(writes.filter((k) => k.includes('/seen')).length).toBe(0);
    expect(writes.filter((k) => k === `engine/${lc}/head`).length).toBeLessThanOrEqual(1);
    // A restart from the stored (earlier) backfill reads those pages again and announces nothing.
    await h.engine.stop();
    h.engine = h.newEngine();
    await runFor(h, 30 * 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([]);
    // Its end is durable: the stored state says the backfill is done, with every key below the window.
    const done = await readStoredState(h.store, lc);
    expect(done?.lists.fundings?.seenFrom).toBe(0);
    const late = h.project.addSupporter({ amount: 9 });
    await runFor(h, 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([fundingKeyOf(late)]);
  }, 120_000);
});
