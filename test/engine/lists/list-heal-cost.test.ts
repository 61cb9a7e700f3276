import { describe, expect, it } from 'vitest';
import type { ListOrder } from '../../../src/engine/lists/list-order.js';
import { defaultListReadOptions, readList } from '../../../src/engine/lists/list-reader.js';
import type { ListState } from '../../../src/engine/lists/list-state.js';
import { type Entry, entryCodec, FakeList } from './fake-list.js';

const orders: ListOrder[] = ['newest-first', 'oldest-first'];
const options = { ...defaultListReadOptions, windowSize: 300 };

async function poll(list: FakeList, state: ListState<Entry> | undefined, heal = false) {
  return readList({ state, fetchPage: list.fetch, codec: entryCodec, options, now: 0, heal });
}

describe.each(orders)("a heal's cost (%s)", (order) => {
  it('counts the window re-read beyond one page as a one-off, so the feed keeps its per-poll cost', async () => {
    const list = new FakeList(order);
    // Short enough that no fill of seen keys is due: the heal is the read's only extra cost.
    for (let i = 0; i < 250; i++) list.add(1000 + i);
    let { state } = await poll(list, undefined);
    const idle = await poll(list, state);
    state = idle.state;
    const pollCost = idle.requests - (idle.oneOffRequests ?? 0);
    // The daily heal re-reads the window region (250 entries: three pages); an ordinary poll is one.
    const healed = await poll(list, state, true);
    expect(healed.kind).toBe('heal');
    // Oldest-first, the baseline kept the old end too: the heal re-reads three pages.
    if (order === 'oldest-first') expect(healed.requests).toBeGreaterThanOrEqual(3);
    expect(healed.requests - (healed.oneOffRequests ?? 0)).toBeLessThanOrEqual(pollCost);
    expect(healed.oneOffRequests ?? 0).toBe(healed.requests - 1);
  });
});
