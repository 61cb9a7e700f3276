import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { droppedEntries } from '../../../src/engine/events/drop-events.js';
import type { ListOrder } from '../../../src/engine/lists/list-order.js';
import { defaultListReadOptions, readList } from '../../../src/engine/lists/list-reader.js';
import type { ListState } from '../../../src/engine/lists/list-state.js';
import { type Entry, entryCodec, FakeList } from './fake-list.js';

const orders: ListOrder[] = ['newest-first', 'oldest-first'];
const options = { ...defaultListReadOptions, windowSize: 200 };

async function poll(list: FakeList, state: ListState<Entry> | undefined, now = 0) {
  // As the engine does (read-feed-list.ts): the window region is re-read once a day.
  const heal = state !== undefined && now - state.lastFullReadAt >= 24 * 3_600_000;
  return readList({ state, fetchPage: list.fetch, codec: entryCodec, options, now, heal });
}

const aDayLater = 24 * 3_600_000 + 1;

/** Takes the entry at `index` out of the list (a support that failed after all) and returns it. */
function removeAt(list: FakeList, index: number): Entry {
  const victim = list.entries[index];
  if (victim === undefined) throw new Error('list too short');
  list.remove(victim.id);
  return victim;
}

/** The ids `reads` polls of `list` announce, from `state` on, and the state after them. */
async function announcedOver(list: FakeList, from: ListState<Entry>, reads: number) {
  const announced: number[] = [];
  let state = from;
  for (let i = 0; i < reads; i++) {
    const result = await poll(list, state);
    announced.push(...result.fresh.map((f) => f.item.id));
    state = result.state;
  }
  return { announced, state };
}

/** A list of 3,000 supporters in `order`, polled until the reader has seen all of it. */
async function readToTheBottom(order: ListOrder) {
  const list = new FakeList(order);
  for (let i = 0; i < 3_000; i++) list.add(1000 + i);
  let read = (await poll(list, undefined)).state;
  while ((read.seenFrom ?? 0) > 0) read = (await poll(list, read)).state;
  return { list, read };
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

  it('a late entry older than the first read is announced once the seen keys below it are filled', async () => {
    const list = new FakeList(order);
    for (let i = 0; i < 5_300; i++) list.add(1000 + i);
    let state = (await poll(list, undefined)).state;
    let fillReads = 0;
    while ((state.seenFrom ?? 0) > 0) {
      const filling = await poll(list, state);
      expect(filling.fresh).toEqual([]);
      state = filling.state;
      fillReads += 1;
    }
    // One page per idle read, once: 5,100 entries below the window in about 57 reads.
    expect(fillReads).toBeLessThanOrEqual(Math.ceil(5_100 / 90) + 1);
    const late = list.add(1500);
    const threeReads = await announcedOver(list, state, 3);
    const { announced } = threeReads;
    state = threeReads.state;
    expect(announced).toEqual([late.id]);
  });

  it('a late entry whose count a drop below the window cancels is found by the daily sweep', async () => {
    const { list, read } = await readToTheBottom(order);
    let state = read;
    // A support 2,000 deep fails while one 1,000 deep turns successful: meta.total does not move.
    removeAt(list, 1000);
    const late = list.add(list.entries[2000]?.ts ?? 0);
    // One new entry at the new end too, so the window's books are looked at.
    const fresh = list.add(9_000);
    const threeReads = await announcedOver(list, state, 3);
    const { announced } = threeReads;
    state = threeReads.state;
    // The totals cannot show it: only the new end's entry is announced...
    expect(announced).toEqual([fresh.id]);
    // ...until the daily sweep by membership reads below the window (3,000 entries: 3 reads).
    let sweepRequests = 0;
    for (let i = 0; i < 4; i++) {
      const result = await poll(list, state, aDayLater);
      announced.push(...result.fresh.map((f) => f.item.id));
      sweepRequests += result.requests - 1;
      state = result.state;
    }
    expect(announced.sort()).toEqual([fresh.id, late.id].sort());
    // The sweep (about 3,000 / 95 pages) and that day's heal of the window region.
    expect(sweepRequests).toBeLessThanOrEqual(Math.ceil(3_000 / 95) + 8);
    expect(state.lastSweepAt).toBe(aDayLater);
  });

  it('a support that drops out far below the window is placed, so its notice can be taken back', async () => {
    const { list, read } = await readToTheBottom(order);
    let state = read;
    const victim = removeAt(list, 1_200);
    const dropped: { ts: number; id: number }[] = [];
    let requests = 0;
    for (let i = 0; i < 2; i++) {
      const result = await poll(list, state);
      dropped.push(...(result.droppedBelow ?? []));
      requests += result.requests;
      state = result.state;
    }
    expect(dropped).toEqual([{ ts: victim.ts, id: entryCodec.packId?.(victim) }]);
    // A binary search on positions: a few pages, not a read of the 2,500 entries below the window.
    expect(requests).toBeLessThanOrEqual(2 + 12);
    expect(state.dropDebt ?? 0).toBe(0);
  });

  it('a support that drops out in the window region under an idle read is attributed by name at the next read', async () => {
    const { list, read } = await readToTheBottom(order);
    let state = read;
    // New supporters fill the window to its 200 entries, then a quiet spell: reads look at the new end only.
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 30; i++) list.add(5000 + round * 30 + i);
      state = (await poll(list, state)).state;
    }
    for (let i = 0; i < 3; i++) state = (await poll(list, state)).state;
    expect(state.entries.length).toBe(200);
    // 150 from the new end: inside the window, far under what an idle read looks at.
    const victim = removeAt(list, list.entries.length - 150);
    const attributed: Entry[] = [];
    const placedBelow: { ts: number; id: number }[] = [];
    let requests = 0;
    for (let i = 0; i < 2; i++) {
      const result = await poll(list, state);
      attributed.push(...droppedEntries(state, result, entryCodec));
      placedBelow.push(...(result.droppedBelow ?? []));
      requests += result.requests;
      state = result.state;
    }
    expect(attributed.map((e) => e.id)).toEqual([victim.id]);
    expect(placedBelow).toEqual([]);
    // The idle read's one page, then the window region's pages once: no search below the window
    // first (it found nothing there and cost a binary search over the 2,800 entries below).
    expect(requests).toBeLessThanOrEqual(1 + Math.ceil(200 / 95) + 1);
    // The books balance again: nothing owed, nothing taken for late, no heal pending.
    expect(state.dropDebt ?? 0).toBe(0);
    expect(state.lateDebt ?? 0).toBe(0);
    expect(state.needsHeal).toBe(false);
    expect((state.belowCount ?? 0) + state.entries.length).toBe(list.entries.length);
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
          // Idle reads fill the seen keys below the first read's floor (list-backfill.ts).
          while ((state.seenFrom ?? 0) > 0) state = (await poll(list, state)).state;
          const announced = new Map<string, number>();
          const added = new Set<string>();
          const removed = new Set<string>();
          const note = (e: Entry) => added.add(entryCodec.key(e));
          const record = (fresh: readonly { key: string }[]) => {
            for (const f of fresh) announced.set(f.key, (announced.get(f.key) ?? 0) + 1);
          };
          for (const [index, round] of rounds.entries()) {
            for (let i = 0; i < round.adds; i++) note(list.add(ts++));
            // Late entries and drops below the read region in the same round too: their counts cancel
            // out, and the sweep by membership (list-late-sweep.ts) finds the entry.
            if (index % 2 === 0) {
              for (const depth of round.lateDepths) note(list.add(1000 + Math.floor(depth * (ts - 1000))));
            }
            if (index % 3 !== 1) {
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
          for (let i = 0; i < 10; i++) {
            // A day later: the daily heal (window region) and sweep (below it) settle what drops
            // and late entries hid from the totals.
            const result = await poll(list, state, aDayLater);
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
