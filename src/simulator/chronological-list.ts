/**
 * The time-ordered lists behind every paged endpoint (fundings, orders, wall, blog,
 * subscribers): keeping them sorted on insert and slicing one page in either order.
 */
import type { ListOrder } from './types.js';

/** A page of a time-ordered list. */
export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

/**
 * Appends keeping chronological order. Entries nearly always arrive in time order,
 * so the search from the end makes this O(1) amortised.
 */
export function insertChronological<T extends { readonly at: number }>(list: T[], item: T): void {
  let index = list.length;
  while (index > 0 && (list[index - 1] as T).at > item.at) index--;
  if (index === list.length) list.push(item);
  else list.splice(index, 0, item);
}

/** One page of a chronological list in the requested order; O(page). */
export function slicePage<T, R>(
  list: readonly T[],
  offset: number,
  limit: number,
  order: ListOrder,
  map: (item: T) => R,
): Page<R> {
  const total = list.length;
  const items: R[] = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) {
    const item = order === 'newest-first' ? list[total - 1 - i] : list[i];
    if (item !== undefined) items.push(map(item));
  }
  return { items, total };
}
