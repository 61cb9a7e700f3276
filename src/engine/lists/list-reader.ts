import {
  assessBaseline,
  assessRead,
  type ListReadOptions,
  type ListReadResult,
  type RawRead,
} from './list-assessment.js';
import { backfillSeenKeys } from './list-backfill.js';
import {
  type FetchListPage,
  readBaseline,
  readNewestFirst,
  readOldestFirst,
  readWhole,
} from './list-fetch.js';
import { searchLateEntries } from './list-late-search.js';
import type { ListItemCodec, ListOrder } from './list-order.js';
import { type ListState, makeKnownTest } from './list-state.js';

export {
  defaultListReadOptions,
  type FreshEntry,
  type ListReadOptions,
  type ListReadResult,
} from './list-assessment.js';
export type { FetchListPage, ListPage } from './list-fetch.js';

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
 * The I/O (which pages to fetch) is in list-fetch.ts; what the pages mean is decided
 * by the pure assessment in list-assessment.ts.
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
 * 6. **Late entries below the window** (codecs with `packId`: fundings). A support that turns
 *    successful late is listed at its own, older timestamp, possibly thousands deep. The state
 *    keeps every evicted key (list-seen-keys.ts, ~4 bytes an entry) and counts what lies below
 *    the floor; when `meta.total` exceeds that count plus the window once the window region is
 *    consistent, the difference is owed, and list-late-search.ts finds it by a binary search on
 *    positions (about log2(depth / 100) + 1 pages, at most `lateSearchPages` per read).
 *    Below the first read's floor `seen` is filled by idle reads, a page each, oldest part
 *    last (list-backfill.ts): after that a late support is found at any depth.
 * 7. **Flood guard.** When at least `floodMin` entries look new and more than
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
    return assessBaseline(baseline, codec, options, input.now, requests);
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
  const assessed = assessRead({
    state,
    read,
    known,
    codec,
    options,
    now: input.now,
    healing,
    heal,
    requests,
  });
  if (assessed.flood !== undefined) return assessed;
  // What follows (fill, late search, sweeps) is a one-off spend, not the cost of a poll; so is a heal's
  // re-read of the window region beyond the first page an ordinary poll reads (a drop to place, the
  // daily check): counted in the per-poll cost, each heal stretched the next polls' intervals and
  // left its pages unplanned, which the re-plans paid for from the rest of the day (an evening drift).
  const pollRequests = heal ? Math.min(requests, 1) : requests;
  const sweepDue =
    (assessed.state.seenFrom ?? 1) <= 0 &&
    assessed.state.lateSweepAt === undefined &&
    input.now - (assessed.state.lastSweepAt ?? assessed.state.baselineAt ?? input.now) >=
      options.lateSweepEveryMs;
  const owed = (assessed.state.lateDebt ?? 0) + (assessed.state.dropDebt ?? 0);
  if (!sweepDue && owed === 0 && assessed.state.lateSweepAt === undefined) {
    // Idle reads fill `seen` below the first read's floor, a page at a time (list-backfill.ts).
    if (assessed.fresh.length > 0 || heal || (assessed.state.seenFrom ?? 0) <= 0)
      return pollRequests < requests ? { ...assessed, oneOffRequests: requests - pollRequests } : assessed;
    const filled = await backfillSeenKeys({
      state: assessed.state,
      fetchPage,
      codec,
      pageSize: options.pageSize,
    });
    return { ...assessed, state: filled.state, requests, oneOffRequests: requests - pollRequests };
  }
  // Something owed: the late search; or the daily sweep by membership, which starts now and goes on over the next reads.
  const late = await searchLateEntries({
    state: sweepDue ? { ...assessed.state, lateSweepAt: 0 } : assessed.state,
    fetchPage,
    codec,
    options,
    now: input.now,
    healed: heal,
  });
  return {
    ...assessed,
    state: late.state,
    fresh: [...late.found, ...assessed.fresh],
    requests,
    oneOffRequests: requests - pollRequests,
    ...(late.unfound > 0 ? { lateUnfound: late.unfound } : {}),
    ...(late.droppedBelow.length > 0 ? { droppedBelow: late.droppedBelow } : {}),
  };
}
