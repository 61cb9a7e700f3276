import { compareByTime, detectOrder, type ListItemCodec, type ListOrder, newestFirst } from './list-order.js';
import { type ListState, makeKnownTest, trimWindow } from './list-state.js';

/** One page as the API returned it. */
export interface ListPage<T> {
  readonly items: readonly T[];
  readonly total: number;
}

export type FetchListPage<T> = (offset: number, limit: number) => Promise<ListPage<T>>;

export interface ListReadOptions {
  /** Known entries re-read at the new end on every poll (drop detection, shift tolerance). Default 20. */
  readonly overlap: number;
  /** Entries shared by consecutive pages of one read, to prove there is no gap between them. Default 5. */
  readonly pageOverlap: number;
  /** The API's maximum page size. Default 100. */
  readonly pageSize: number;
  /** Entries kept in the window. Default 500. */
  readonly windowSize: number;
  /** Fewer new entries than this never trip the flood guard. Default 50. */
  readonly floodMin: number;
  /** Flood when more than this share of the new-looking entries is not explained by the list growing. Default 0.5. */
  readonly floodRatio: number;
}

export const defaultListReadOptions: ListReadOptions = {
  overlap: 20,
  pageOverlap: 5,
  pageSize: 100,
  windowSize: 500,
  floodMin: 50,
  floodRatio: 0.5,
};

/** A new entry with its 1-based position counted from the oldest entry (the supporter number). */
export interface FreshEntry<T> {
  readonly item: T;
  readonly key: string;
  readonly position: number;
}

export interface ListReadResult<T> {
  readonly kind: 'baseline' | 'incremental' | 'heal';
  /** The state to store (already re-baselined when `flood`). */
  readonly state: ListState<T>;
  /** New entries, oldest first. Empty on a baseline and when the flood guard held them. */
  readonly fresh: readonly FreshEntry<T>[];
  /** Known entries that disappeared from the list (failed supports, deleted posts). */
  readonly dropped: number;
  readonly requests: number;
  /** Set when the flood guard held `held` new-looking entries and re-baselined instead. */
  readonly flood?: { readonly held: number; readonly reason: string };
}

interface Input<T> {
  readonly state: ListState<T> | undefined;
  readonly fetchPage: FetchListPage<T>;
  readonly codec: ListItemCodec<T>;
  readonly options: ListReadOptions;
  /** Epoch ms. */
  readonly now: number;
  /** Re-read the whole window region (healing) even if nothing looks wrong. */
  readonly heal?: boolean;
}

/**
 * Reads what is new in a list at a cost that does not depend on its length.
 *
 * The API pages by offset with no cursor and no snapshot; its order
 * (newest-first or oldest-first) is not specified. The algorithm:
 *
 * 1. **Baseline** (no state): read offset 0 (limit 100). Detect the order from the
 *    page's first and last entry (timestamp, then id). If the page holds the
 *    whole list, it is the window; newest-first: page 0 is the newest end;
 *    oldest-first (or still unknown): also read the last page (offset total-100)
 *    and take that as the window. Nothing is announced.
 * 2. **Incremental read of the new end.** An entry is *known* when its key is in the
 *    window or its timestamp is below the window's floor. With `e` = expected new
 *    entries (moving average) and `k` = overlap:
 *    - newest-first: read offset 0 with limit min(100, k + e); stop as soon as a
 *      page ends with a known entry, or at the end of the list; otherwise read the
 *      next page starting `pageOverlap` entries before the previous page's end.
 *    - oldest-first: read offset (stored total - k) with the same limit; `meta.total`
 *      is only learnt from the response, so: an empty page (the list shrank) re-aims
 *      at meta.total - k; a page whose first entry is not known (removals before the
 *      offset shifted the end towards us) steps back a page until it starts known;
 *      then pages forward (overlapping by `pageOverlap`) until offset + items >= meta.total.
 *    An idle cycle is therefore ONE request whatever the list's length.
 * 3. **Shifts between pages.** Consecutive pages overlap by `pageOverlap`. A page's
 *    first entry must already have been seen in this read: then the two pages are
 *    contiguous (insertions only push entries further away, which the overlap
 *    dedups by key). If not, removals shifted entries past the page boundary: the
 *    page is re-requested `pageOverlap` earlier (three times at most, then the read
 *    is marked for healing). Entries read twice are deduplicated by key, and an
 *    entry is announced only when not known, so nothing is announced twice.
 * 4. **Drops and counts.** Every window entry newer than the oldest entry read but
 *    missing from the (contiguous) read has dropped out (failed collection, deleted
 *    post): it leaves the window silently. Then `meta.total` must equal
 *    stored total + new - dropped. A larger total means something was missed (an
 *    entry inserted deeper than the read, a gap): the next poll heals. A smaller
 *    one means drops older than the read region: the total is simply corrected.
 *    The stored total is always the latest `meta.total`, so supporter numbers stay right.
 * 5. **Healing** (count mismatch, a gap, an order contradiction, or once a day):
 *    re-read the whole window region, i.e. from the new end until entries are
 *    older than the floor. Entries older than the floor count as seen by
 *    construction, so this region is everything that can still matter; it costs
 *    about windowSize/100 requests, again independent of the list's length.
 * 6. **Flood guard.** When at least `floodMin` entries look new and more than
 *    `floodRatio` of them are not explained by the list's growth (keys changed, the
 *    list was reset, a bug), or no known entry can be found within the pages the
 *    growth justifies, the entries are held (not announced), the window is rebuilt
 *    from what was read and the caller warns the operator.
 */
export async function readList<T>(input: Input<T>): Promise<ListReadResult<T>> {
  const { state, codec, options } = input;
  let requests = 0;
  const fetchPage: FetchListPage<T> = async (offset, limit) => {
    requests += 1;
    return input.fetchPage(offset, limit);
  };
  if (state === undefined) {
    const baseline = await readBaseline(fetchPage, codec, options);
    return {
      kind: 'baseline',
      state: {
        order: baseline.order,
        total: baseline.total,
        ...trimWindow(
          codec,
          baseline.items,
          baseline.wholeList ? 0 : minTs(codec, baseline.items) + 1,
          options.windowSize,
        ),
        lastFullReadAt: input.now,
        needsHeal: false,
        newPerPoll: 0,
        lastChangeAt: null,
      },
      fresh: [],
      dropped: 0,
      requests,
    };
  }

  const healing = input.heal === true || state.needsHeal;
  // A list whose order is unknown holds at most one distinct second: it is read whole, like a heal.
  const heal = healing || state.order === null;
  const known = makeKnownTest(codec, state);
  const boundary = heal ? (item: T) => codec.ts(item) < state.floorTs : known;
  const expected = Math.ceil(state.newPerPoll * 2) + 1;
  const firstLimit = heal ? options.pageSize : Math.min(options.pageSize, options.overlap + expected);
  let order: ListOrder | null = state.order;
  let read: RawRead<T> | undefined;
  if (order === null) {
    // Order still unknown (the list had fewer than two distinct entries): learn it, then heal-read.
    const whole = await readWhole(fetchPage, codec, options);
    if (whole.order === null || whole.reachedOldEnd) read = whole;
    order = whole.order;
  }
  read ??=
    order === 'oldest-first'
      ? await readOldestFirst(fetchPage, codec, options, state.total, firstLimit, boundary, heal)
      : await readNewestFirst(fetchPage, codec, options, state.total, firstLimit, boundary, heal);

  const observedOrder = read.order ?? state.order;
  const orderContradicted = state.order !== null && read.order !== null && read.order !== state.order;
  const collected = read.items;
  const fresh = newestFirst(
    codec,
    collected.filter((item) => !known(item)),
  ).reverse();

  // Drops: only provable on a contiguous read; entries at the oldest second read may lie past the page end.
  const collectedKeys = new Set(collected.map((i) => codec.key(i)));
  const oldestRead = collected.reduce<T | undefined>(
    (min, i) => (min === undefined || compareByTime(codec, i, min) < 0 ? i : min),
    undefined,
  );
  const droppedKeys = new Set<string>();
  if (read.contiguous && oldestRead !== undefined) {
    const limitTs = codec.ts(oldestRead);
    for (const entry of state.entries) {
      if (codec.ts(entry) > limitTs && !collectedKeys.has(codec.key(entry)))
        droppedKeys.add(codec.key(entry));
    }
  }

  const growth = read.total - state.total;
  const unexplained = fresh.length - Math.max(0, growth) - droppedKeys.size;
  const noOverlap = !read.complete && state.total > 0;
  const manyNew = fresh.length >= options.floodMin;
  // Counts alone cannot tell "keys changed" from "N new + N dropped": many of both at once is the tell.
  const floodReason = !manyNew
    ? undefined
    : unexplained > options.floodRatio * fresh.length
      ? `${fresh.length} entries looked new but the list grew by ${growth}`
      : droppedKeys.size >= options.floodRatio * fresh.length
        ? `${fresh.length} entries looked new while ${droppedKeys.size} known ones vanished (keys changed or the list was reset)`
        : noOverlap
          ? `no known entry found within ${requests} pages (${fresh.length} entries looked new)`
          : undefined;

  const newPerPoll = 0.7 * state.newPerPoll + 0.3 * Math.min(fresh.length, options.pageSize * 10);
  if (floodReason !== undefined) {
    return {
      kind: healing ? 'heal' : 'incremental',
      state: {
        order: observedOrder,
        total: read.total,
        ...trimWindow(codec, collected, minTs(codec, collected) + 1, options.windowSize),
        lastFullReadAt: input.now,
        needsHeal: false,
        newPerPoll: state.newPerPoll,
        lastChangeAt: state.lastChangeAt,
      },
      fresh: [],
      dropped: droppedKeys.size,
      requests,
      flood: { held: fresh.length, reason: floodReason },
    };
  }

  // Positions: the read is contiguous from the new end, so an entry's number is the
  // total minus the number of entries read that are newer than it.
  const byAge = newestFirst(codec, collected);
  const rank = new Map(byAge.map((item, index) => [codec.key(item), index]));
  const freshEntries = fresh.map((item) => {
    const key = codec.key(item);
    return { item, key, position: Math.max(1, read.total - (rank.get(key) ?? 0)) };
  });

  const expectedTotal = state.total + fresh.length - droppedKeys.size;
  const missedSomething = read.total > expectedTotal;
  const kept = state.entries.filter((e) => !droppedKeys.has(codec.key(e)));
  const window = trimWindow(codec, [...kept, ...fresh], state.floorTs, options.windowSize);
  return {
    kind: healing ? 'heal' : 'incremental',
    state: {
      order: observedOrder,
      total: read.total,
      ...window,
      lastFullReadAt: heal ? input.now : state.lastFullReadAt,
      needsHeal: (missedSomething && !heal) || !read.contiguous || !read.reachedNewEnd || orderContradicted,
      newPerPoll,
      lastChangeAt: fresh.length > 0 ? input.now : state.lastChangeAt,
    },
    fresh: freshEntries,
    dropped: droppedKeys.size,
    requests,
  };
}

interface RawRead<T> {
  readonly items: T[];
  readonly total: number;
  readonly order: ListOrder | null;
  /** Every page after the first started with an entry already read (no gap). */
  readonly contiguous: boolean;
  /** The read found a known entry (or the list's old end): its new entries are anchored to what was seen. */
  readonly complete: boolean;
  /**
   * The read got as far as the list's new end. Only an oldest-first read, which starts in
   * the known region and pages forward, can stop short (page budget): the rest is read by
   * the next poll's heal, never mistaken for a flood.
   */
  readonly reachedNewEnd: boolean;
  /** The whole list was read (readWhole only). */
  readonly reachedOldEnd?: boolean;
}

function minTs<T>(codec: ListItemCodec<T>, items: readonly T[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const item of items) min = Math.min(min, codec.ts(item));
  return Number.isFinite(min) ? min : 0;
}

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

async function readBaseline<T>(
  fetchPage: FetchListPage<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
): Promise<{ items: T[]; total: number; order: ListOrder | null; wholeList: boolean }> {
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
async function readWhole<T>(
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

async function readNewestFirst<T>(
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

async function readOldestFirst<T>(
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
