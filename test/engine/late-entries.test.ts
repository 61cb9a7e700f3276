import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListOrder } from '../../src/engine/list-order.js';
import { defaultListReadOptions, readList } from '../../src/engine/list-reader.js';
import type { ListState } from '../../src/engine/list-state.js';
import { type Entry, entryCodec, FakeList } from './fake-list.js';

const orders: ListOrder[] = ['newest-first', 'oldest-first'];
const options = { ...defaultListReadOptions, windowSize: 200 };

async function poll(list: FakeList, state: ListState<Entry> | undefined) {
  return readList({ state, fetchPage: list.fetch, codec: entryCodec, options, now: 0 });
}

describe.each(orders)('entries that appear below the window (%s)', (order) => {
  it('a late entry 5,000 deep is announced once, within a few requests', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 300; i++) list.add(1000 + i);
    let state = (await poll(list, undefined)).state;
    for (let i = 0; i < 6000; i++) list.add(2000 + i);
    for (let round = 0; round < 60; round++) state = (await poll(list, state)).state;
    const late = list.add(list.entries[list.entries.length - 5001]?.ts ?? 0);
    list.requests.length = 0;
    // The first poll sees the total grow unexplained and heals the window region; that read finds
    // nothing there, so the entry lies below and the late search finds it.
    const first = await poll(list, state);
    expect(first.fresh).toEqual([]);
    const result = await poll(list, first.state);
    expect(result.fresh.map((f) => f.item.id)).toEqual([late.id]);
    expect(result.fresh[0]?.position).toBe(list.entries.indexOf(late) + 1);
    expect(result.requests).toBeLessThanOrEqual(5 + 12);
    expect((await poll(list, result.state)).fresh).toEqual([]);
    // ~4 bytes an entry: the whole seen set of 6,300 entries.
    expect(result.state.seen?.length ?? 0).toBeLessThan(6300 * 6);
  });

  it('late entries at any depth, with drops and shifts, are announced exactly once (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1500 }),
        fc.array(
          fc.record({
            adds: fc.integer({ min: 0, max: 150 }),
            lateDepths: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
            deepDrops: fc.integer({ min: 0, max: 2 }),
            insertBetween: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (initial, rounds) => {
          const list = new FakeList(order);
          let ts = 1000;
          for (let i = 0; i < initial; i++) list.add(ts++);
          let state = (await poll(list, undefined)).state;
          // Entries older than the first read were never seen: a late one there is out of reach by design.
          const firstFloor = state.floorTs;
          const announced = new Map<string, number>();
          const added = new Set<string>();
          const removed = new Set<string>();
          const note = (e: Entry) => added.add(entryCodec.key(e));
          const record = (fresh: readonly { key: string }[]) => {
            for (const f of fresh) announced.set(f.key, (announced.get(f.key) ?? 0) + 1);
          };
          for (const [index, round] of rounds.entries()) {
            for (let i = 0; i < round.adds; i++) note(list.add(ts++));
            // A drop below the read region and a late entry that meet in one balancing of the counts
            // cancel out (a stated limit): drops come two polls after late entries, once those are found.
            if (index % 3 === 0) {
              for (const depth of round.lateDepths) {
                const lowest = Math.max(firstFloor, 1000);
                note(list.add(lowest + Math.floor(depth * (ts - lowest))));
              }
            } else if (index % 3 === 2) {
              for (let i = 0; i < round.deepDrops && list.entries.length > 0; i++) {
                const victim = list.entries[Math.floor(list.entries.length / 3)];
                if (victim) {
                  removed.add(entryCodec.key(victim));
                  list.remove(victim.id);
                }
              }
            }
            let budget = 3;
            list.betweenPages = () => {
              if (budget-- > 0) for (let i = 0; i < round.insertBetween; i++) note(list.add(ts++));
            };
            const result = await poll(list, state);
            list.betweenPages = null;
            record(result.fresh);
            state = result.state;
          }
          for (let i = 0; i < 6; i++) {
            const result = await poll(list, state);
            record(result.fresh);
            state = result.state;
          }
          for (const [key, count] of announced) expect(count, key).toBe(1);
          for (const key of added) if (!removed.has(key)) expect(announced.has(key), key).toBe(true);
          expect(state.total).toBe(list.entries.length);
          expect(state.lateDebt).toBe(0);
        },
      ),
      { numRuns: Number(process.env.FUNDBOT_PROPERTY_RUNS ?? 60) },
    );
  });
});
