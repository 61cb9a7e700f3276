import type { ListItemCodec, ListOrder } from '../../../src/engine/lists/list-order.js';
import type { ListPage } from '../../../src/engine/lists/list-reader.js';

/** An entry of the fake list: id and unix-second timestamp. */
export interface Entry {
  readonly id: number;
  readonly ts: number;
}

export const entryCodec: ListItemCodec<Entry> = {
  key: (e) => `e:${e.id}`,
  ts: (e) => e.ts,
  tieId: (e) => e.id,
  packId: (e) => e.id,
};

/**
 * An in-memory list paged like the API (offset/limit, meta.total, no snapshot),
 * in either order. `betweenPages` runs before every request with offset > 0,
 * like the simulator's shiftBetweenPages fault. Records every request.
 */
export class FakeList {
  entries: Entry[] = []; // oldest first
  readonly requests: { offset: number; limit: number }[] = [];
  betweenPages: (() => void) | null = null;
  #nextId = 1;

  constructor(readonly order: ListOrder) {}

  add(ts: number): Entry {
    const entry = { id: this.#nextId++, ts };
    const last = this.entries.at(-1);
    this.entries.push(entry);
    if (last !== undefined && last.ts > ts) this.entries.sort((a, b) => a.ts - b.ts || a.id - b.id);
    return entry;
  }

  remove(id: number): void {
    this.entries = this.entries.filter((e) => e.id !== id);
  }

  fetch = async (offset: number, limit: number): Promise<ListPage<Entry>> => {
    this.requests.push({ offset, limit });
    if (offset > 0) this.betweenPages?.();
    const view = this.order === 'oldest-first' ? this.entries : [...this.entries].reverse();
    return { items: view.slice(offset, offset + Math.min(100, limit)), total: view.length };
  };
}
