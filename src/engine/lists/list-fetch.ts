import type { BaselineRead, ListReadOptions, RawRead } from './list-assessment.js';
import { detectOrder, type ListItemCodec, type ListOrder } from './list-order.js';

/** One page as the API returned it. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly total: number;
}

export type FetchListPage<T> = (offset: number, limit: number) => Promise<ListPage<T>>;

class Collected<T> {
  readonly #codec: ListItemCodec<T>;
  readonly #byKey = new Map<string, T>();
  constructor(codec: ListItemCodec<T>) {
    this.#codec = codec;
  }
  has(item: T): boolean {
    return this.#byKey.has(this.#codec.key(item));
  }
  add(items: readonly T[]): void {
    for (const item of items) this.#byKey.set(this.#codec.key(item), item);
  }
  get size(): number {
    return this.#byKey.size;
  }
  values(): T[] {
    return [...this.#byKey.values()];
  }
}

/** Pages the growth can justify, plus slack: beyond this, "everything looks new" is an anomaly. */
function pageBudget(options: ListReadOptions, storedTotal: number, total: number, heal: boolean): number {
  const region = Math.max(0, total - storedTotal) + options.overlap + (heal ? options.windowSize : 0);
  return Math.ceil(region / (options.pageSize - options.pageOverlap)) + 2;
}

export async function readBaseline<T>(
  fetchPage: FetchListPage<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
): Promise<BaselineRead<T>> {
  const first = await fetchPage(0, options.pageSize);
  const order = detectOrder(codec, first.items);
  if (first.items.length >= first.total)
    return { items: [...first.items], total: first.total, order, wholeList: true };
  if (order === 'newest-first')
    return { items: [...first.items], total: first.total, order, wholeList: false };
  const last = await fetchPage(Math.max(0, first.total - options.pageSize), options.pageSize);
  const head = first.items[0];
  const tail = last.items.at(-1);
  const detected =
    order ??
    (head !== undefined && tail !== undefined && codec.ts(tail) < codec.ts(head)
      ? 'newest-first'
      : 'oldest-first');
  const items = detected === 'newest-first' ? first.items : last.items;
  return { items: [...items], total: last.total, order: detected, wholeList: false };
}

/** For lists whose order is still unknown: they are small (one page) or get read at both ends. */
export async function readWhole<T>(
  fetchPage: FetchListPage<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
): Promise<RawRead<T>> {
  const baseline = await readBaseline(fetchPage, codec, options);
  return {
    items: baseline.items,
    total: baseline.total,
    order: baseline.order,
    contiguous: true,
    complete: baseline.wholeList,
    // A baseline read starts at the new end (offset 0) or reads the last page.
    reachedNewEnd: true,
    reachedOldEnd: baseline.wholeList,
  };
}

function orderOf<T>(
  codec: ListItemCodec<T>,
  items: readonly T[],
  current: ListOrder | null,
): ListOrder | null {
  return detectOrder(codec, items) ?? current;
}

export async function readNewestFirst<T>(
  fetchPage: FetchListPage<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
  storedTotal: number,
  firstLimit: number,
  boundary: (item: T) => boolean,
  heal: boolean,
): Promise<RawRead<T>> {
  const collected = new Collected(codec);
  let offset = 0;
  let limit = firstLimit;
  let total = 0;
  let order: ListOrder | null = null;
  let contiguous = true;
  let stepBacks = 0;
  let pages = 0;
  let maxPages = Number.POSITIVE_INFINITY;
  for (;;) {
    const page = await fetchPage(offset, limit);
    pages += 1;
    if (pages === 1) {
      total = page.total;
      maxPages = pageBudget(options, storedTotal, total, heal);
    }
    order = orderOf(codec, page.items, order);
    const head = page.items[0];
    if (offset > 0 && head !== undefined && !collected.has(head)) {
      if (stepBacks < 3 && pages < maxPages) {
        stepBacks += 1;
        offset = Math.max(0, offset - options.pageOverlap);
        continue;
      }
      contiguous = false;
    }
    collected.add(page.items);
    const last = page.items.at(-1);
    const done = (complete: boolean): RawRead<T> => ({
      items: collected.values(),
      total,
      order,
      contiguous,
      complete,
      reachedNewEnd: true,
    });
    if (last === undefined || boundary(last) || offset + page.items.length >= page.total) return done(true);
    if (pages >= maxPages) return done(false);
    offset = offset + page.items.length - options.pageOverlap;
    limit = options.pageSize;
  }
}

export async function readOldestFirst<T>(
  fetchPage: FetchListPage<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
  storedTotal: number,
  firstLimit: number,
  boundary: (item: T) => boolean,
  heal: boolean,
): Promise<RawRead<T>> {
  const collected = new Collected(codec);
  // A heal re-reads the whole window region: start below the window's floor rather than one page
  // below the end, so the page budget is not spent stepping back towards it.
  let offset = Math.max(0, storedTotal - (heal ? options.windowSize + options.overlap : options.overlap));
  let limit = firstLimit;
  let order: ListOrder | null = null;
  let pages = 0;
  let maxPages = Number.POSITIVE_INFINITY;
  let page: ListPage<T>;
  let reachedBoundary = false;
  // Locate: a page that starts inside the known region (or at offset 0).
  for (;;) {
    page = await fetchPage(offset, limit);
    pages += 1;
    if (pages === 1) maxPages = pageBudget(options, storedTotal, page.total, heal);
    order = orderOf(codec, page.items, order);
    const head = page.items[0];
    if (head === undefined) {
      reachedBoundary = page.total === 0 || offset === 0;
      if (reachedBoundary || pages >= maxPages) break;
      // The list shrank below the offset: aim at its end again.
      offset = Math.max(0, page.total - options.overlap);
      continue;
    }
    collected.add(page.items);
    if (boundary(head) || offset === 0) {
      reachedBoundary = true;
      break;
    }
    if (pages >= maxPages) break;
    // Started past the known region: step back a page, keeping an overlap with this one.
    offset = Math.max(0, offset - (options.pageSize - options.pageOverlap));
    limit = options.pageSize;
  }
  // Forward to the end, pages overlapping so that a shift cannot open a gap unseen.
  let contiguous = true;
  let stepBacks = 0;
  while (offset + page.items.length < page.total && pages < maxPages) {
    let next = offset + page.items.length - options.pageOverlap;
    let following = await fetchPage(next, options.pageSize);
    pages += 1;
    while (
      following.items[0] !== undefined &&
      !collected.has(following.items[0]) &&
      stepBacks < 3 &&
      pages < maxPages &&
      next > 0
    ) {
      stepBacks += 1;
      next = Math.max(0, next - options.pageOverlap);
      following = await fetchPage(next, options.pageSize);
      pages += 1;
    }
    if (following.items[0] !== undefined && !collected.has(following.items[0])) contiguous = false;
    if (following.items.length === 0) break;
    order = orderOf(codec, following.items, order);
    collected.add(following.items);
    offset = next;
    page = following;
  }
  const reachedEnd = offset + page.items.length >= page.total;
  return {
    items: collected.values(),
    total: page.total,
    order,
    contiguous,
    complete: reachedBoundary,
    reachedNewEnd: reachedEnd,
  };
}
