import type { FetchListPage } from './list-fetch.js';
import type { ListOrder } from './list-order.js';

export interface PositionedPage<T> {
  /** Oldest first. */
  readonly items: readonly T[];
  /** 0-based position of items[0], counted from the list's oldest entry. */
  readonly start: number;
  readonly total: number;
}

/** Reads the entries at positions [start, start + count) counted from the old end, whatever the list's order. */
export async function readPositions<T>(
  fetchPage: FetchListPage<T>,
  order: ListOrder,
  total: number,
  start: number,
  count: number,
): Promise<PositionedPage<T>> {
  if (order === 'oldest-first') {
    const page = await fetchPage(start, count);
    return { items: page.items, start, total: page.total };
  }
  // Newest first, a position's offset depends on the total: entries added at the new end since
  // it was learnt shift it, so a page whose total differs is read again at the corrected offset.
  let known = total;
  for (let attempt = 0; ; attempt++) {
    const offset = Math.max(0, known - start - count);
    const limit = Math.max(1, Math.min(count, known - start));
    const page = await fetchPage(offset, limit);
    if (page.total !== known && attempt === 0) {
      known = page.total;
      continue;
    }
    const items = [...page.items].reverse();
    return { items, start: Math.max(0, page.total - offset - items.length), total: page.total };
  }
}
