import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListOrder } from '../../../src/engine/lists/list-order.js';
import { defaultListReadOptions, readList } from '../../../src/engine/lists/list-reader.js';
import type { ListState } from '../../../src/engine/lists/list-state.js';
import { type Entry, entryCodec, FakeList } from './fake-list.js';

const orders: ListOrder[] = ['newest-first', 'oldest-first'];
const options = { ...defaultListReadOptions, windowSize: 200 };

async function poll(list: FakeList, state: ListState<Entry> | undefined, now = 0, heal = false) {
  return readList({ state, fetchPage: list.fetch, codec: entryCodec, options, now, heal });
}

describe.each(orders)('incremental list reading (%s)', (order) => {
  it('a first read stores a baseline and reports nothing new', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 250; i++) list.add(1000 + i);
    const result = await poll(list, undefined);
    expect(result.kind).toBe('baseline');
    expect(result.fresh).toEqual([]);
    expect(result.state.order).toBe(order);
    expect(result.state.total).toBe(250);
  });

  it('an idle cycle costs one request however long the list is, once the one-time fill of seen keys is done', async () => {
    for (const size of [30, 3_000, 30_000]) {
      const list = new FakeList(order);
      for (let i = 0; i < size; i++) list.add(1000 + i);
      let { state } = await poll(list, undefined);
      // The fill below the first read's floor: one extra page per idle read, about size / 90 reads.
      let fillReads = 0;
      while ((state.seenFrom ?? 0) > 0) {
        const filling = await poll(list, state);
        expect(filling.requests).toBe(2);
        // The fill's page is a one-off spend, kept out of the feed's per-poll cost.
        expect(filling.oneOffRequests).toBe(1);
        expect(filling.fresh).toEqual([]);
        state = filling.state;
        fillReads += 1;
      }
      expect(fillReads).toBeLessThanOrEqual(Math.ceil(size / 90) + 1);
      list.requests.length = 0;
      const idle = await poll(list, state);
      expect(idle.requests).toBe(1);
      expect(idle.fresh).toEqual([]);
      expect(list.requests[0]?.limit).toBeLessThanOrEqual(options.overlap + 2);
    }
    // A deadline, not a pace: the 30,000-entry fill is about 12-17 s of CPU on a loaded 2-core machine.
  }, 60_000);

  it('new entries are reported once, oldest first, with their position', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 500; i++) list.add(1000 + i);
    let { state } = await poll(list, undefined);
    list.add(2000);
    list.add(2001);
    const result = await poll(list, state);
    expect(result.fresh.map((f) => [f.item.ts, f.position])).toEqual([
      [2000, 501],
      [2001, 502],
    ]);
    state = result.state;
    expect((await poll(list, state)).fresh).toEqual([]);
  });

  it('a burst larger than a page is read over several overlapping pages without a gap', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 1000; i++) list.add(1000 + i);
    const { state } = await poll(list, undefined);
    for (let i = 0; i < 450; i++) list.add(5000 + i);
    const result = await poll(list, state);
    expect(result.fresh).toHaveLength(450);
    expect(new Set(result.fresh.map((f) => f.key)).size).toBe(450);
    expect(result.state.needsHeal).toBe(false);
  });

  it('dropped entries leave the window silently and correct the total', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 300; i++) list.add(1000 + i);
    const { state } = await poll(list, undefined);
    const newest = list.entries.at(-1);
    list.remove(newest?.id ?? 0);
    list.remove(list.entries[10]?.id ?? 0); // deep below the read region
    const result = await poll(list, state);
    expect(result.fresh).toEqual([]);
    expect(result.state.total).toBe(298);
    expect(result.state.entries.some((e) => e.id === newest?.id)).toBe(false);
  });

  it('an entry inserted below the read region is caught by the count check and the heal', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 300; i++) list.add(1000 + i * 10);
    const first = await poll(list, undefined);
    const backdated = list.add(1000 + 250 * 10 + 5); // inside the window, below the region an idle poll reads
    const second = await poll(list, first.state);
    expect(second.fresh).toEqual([]);
    expect(second.state.needsHeal).toBe(true);
    const third = await poll(list, second.state);
    expect(third.kind).toBe('heal');
    expect(third.fresh.map((f) => f.item.id)).toEqual([backdated.id]);
    expect(third.state.needsHeal).toBe(false);
  });

  it('the flood guard holds a list whose keys all changed and re-baselines', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 400; i++) list.add(1000 + i);
    const { state } = await poll(list, undefined);
    // Same length, new identities (a changed key format, a reset list).
    list.entries = list.entries.map((e) => ({ id: e.id + 100_000, ts: e.ts }));
    const result = await poll(list, state);
    expect(result.fresh).toEqual([]);
    expect(result.flood?.held).toBeGreaterThanOrEqual(options.floodMin);
    expect((await poll(list, result.state)).fresh).toEqual([]);
  });

  it('stored state stays bounded by the window however long the list grows', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 20_000; i++) list.add(1000 + i);
    let { state } = await poll(list, undefined);
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 40; i++) list.add(100_000 + round * 100 + i);
      state = (await poll(list, state)).state;
    }
    expect(state.entries.length).toBeLessThanOrEqual(options.windowSize + 40);
    expect(state.total).toBe(21_200);
  });

  it('a heal that meets a burst announces it instead of mistaking a long read for a flood', async () => {
    // The property below found this (oldest-first): a heal used to start one page below the end, spend
    // its page budget stepping back to the window's floor, stop short of the new end and hold the burst.
    const list = new FakeList(order);
    let ts = 1000;
    for (let i = 0; i < 39; i++) list.add(ts++);
    let state = (await poll(list, undefined)).state;
    list.remove(list.entries[19]?.id ?? 0);
    state = (await poll(list, state)).state;
    const insertBetweenPages = (count: number) => {
      let budget = 4;
      list.betweenPages = () => {
        if (budget-- > 0) for (let i = 0; i < count; i++) list.add(ts++);
      };
    };
    for (let i = 0; i < 202; i++) list.add(ts++);
    insertBetweenPages(1);
    state = (await poll(list, state)).state;
    const before = new Set(list.entries.map((e) => e.id));
    for (let i = 0; i < 134; i++) list.add(ts++);
    insertBetweenPages(2);
    const result = await poll(list, state);
    list.betweenPages = null;
    expect(result.flood).toBeUndefined();
    // Entries inserted at the head while pages were read are caught by the next cycle.
    const next = await poll(list, result.state);
    const announced = [...result.fresh, ...next.fresh].map((f) => f.item.id);
    expect(new Set(announced).size).toBe(announced.length);
    for (const entry of list.entries) {
      if (!before.has(entry.id)) expect(announced.includes(entry.id), `e:${entry.id}`).toBe(true);
    }
  });

  it('positions shifting between pages never report an entry twice nor lose one (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            adds: fc.integer({ min: 0, max: 260 }),
            removes: fc.integer({ min: 0, max: 3 }),
            insertBetween: fc.integer({ min: 0, max: 3 }),
            removeBetween: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        fc.integer({ min: 0, max: 400 }),
        async (rounds, initial) => {
          const list = new FakeList(order);
          let ts = 1000;
          for (let i = 0; i < initial; i++) list.add(ts++);
          let state = (await poll(list, undefined)).state;
          const announced = new Map<string, number>();
          const added = new Set<string>();
          const removed = new Set<string>();
          const note = (e: Entry) => added.add(entryCodec.key(e));
          for (const round of rounds) {
            for (let i = 0; i < round.adds; i++) note(list.add(ts++));
            for (let i = 0; i < round.removes && list.entries.length > 0; i++) {
              const victim = list.entries[Math.floor(list.entries.length / 2)];
              if (victim) {
                removed.add(entryCodec.key(victim));
                list.remove(victim.id);
              }
            }
            let budget = 4;
            list.betweenPages = () => {
              if (budget-- <= 0) return;
              for (let i = 0; i < round.insertBetween; i++) note(list.add(ts++));
              for (let i = 0; i < round.removeBetween && list.entries.length > 0; i++) {
                const victim = list.entries.at(-1 - i);
                if (victim) {
                  removed.add(entryCodec.key(victim));
                  list.remove(victim.id);
                }
              }
            };
            const result = await poll(list, state);
            list.betweenPages = null;
            for (const f of result.fresh) announced.set(f.key, (announced.get(f.key) ?? 0) + 1);
            state = result.state;
          }
          // Two quiet cycles: whatever a shift skipped is caught next cycle (or by the heal).
          for (let i = 0; i < 2; i++) {
            const result = await poll(list, state);
            for (const f of result.fresh) announced.set(f.key, (announced.get(f.key) ?? 0) + 1);
            state = result.state;
          }
          for (const count of announced.values()) expect(count).toBe(1);
          for (const key of added) {
            if (!removed.has(key)) expect(announced.has(key), key).toBe(true);
          }
          expect(state.total).toBe(list.entries.length);
        },
      ),
      { numRuns: Number(process.env.FUNDBOT_PROPERTY_RUNS ?? 60) },
    );
  });
});
