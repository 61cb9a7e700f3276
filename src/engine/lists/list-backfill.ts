import type { FetchListPage } from './list-fetch.js';
import type { ListItemCodec } from './list-order.js';
import { type PositionedPage, readPositions } from './list-positions.js';
import { SeenKeys } from './list-seen-keys.js';
import type { ListState } from './list-state.js';

/**
 * Entries re-read above the part still to be filled, so a page proves it reaches the part
 * already complete: without that proof an entry could fall between two backfill pages, be
 * missing from `seen` and later be taken for a late support.
 */
const boundaryOverlap = 10;
/** Pages one call may read when the boundary moved (see below). */
const maxPagesPerCall = 3;

export interface BackfillResult<T> {
  readonly state: ListState<T>;
  readonly requests: number;
}

/**
 * Fills `seen` below its start (`seenFrom`, the floor of the first read) down to the list's
 * oldest entry, one page per call, oldest part last. Until it is done, a support that was
 * listed before the bot's first read and turns successful later (listed at its own, older
 * `support_timestamp`, possibly thousands deep) could not be told from one already seen;
 * afterwards every entry is known by its key, whatever its depth.
 *
 * Cost: once per list, total/100 requests (5,000 supporters: 50; 100,000: 1,000), one per
 * idle read, so it never delays a notice; store: about 4 bytes per entry in `seen`.
 *
 * The one case it cannot tell: a support that turns successful inside the part not yet
 * filled while the fill is under way (the first minutes to hours after the very first
 * start, on a long list) is read as if it had been there before; the totals still owe it,
 * and the late search reports it as unfound.
 */
export async function backfillSeenKeys<T>(input: {
  readonly state: ListState<T>;
  readonly fetchPage: FetchListPage<T>;
  readonly codec: ListItemCodec<T>;
  readonly pageSize: number;
}): Promise<BackfillResult<T>> {
  const { state, codec } = input;
  const packId = codec.packId?.bind(codec);
  const seenFrom = state.seenFrom;
  if (packId === undefined || state.order === null || seenFrom === undefined || seenFrom <= 0) {
    return { state, requests: 0 };
  }
  const seen = SeenKeys.unpack(state.seen);
  // Entries below `seenFrom` are the ones counted below the floor but not listed in `seen`.
  const unfilled = Math.max(0, (state.belowCount ?? 0) - seen.size);
  if (unfilled === 0) return { state: { ...state, seenFrom: 0 }, requests: 0 };
  let requests = 0;
  const counted: FetchListPage<T> = (offset, limit) => {
    requests += 1;
    return input.fetchPage(offset, limit);
  };
  // Normally one page; more only when late entries or drops moved the boundary up.
  let top = Math.min(unfilled + boundaryOverlap, state.total);
  let total = state.total;
  const { pageSize } = input;
  let page: PositionedPage<T>;
  for (;;) {
    const start = Math.max(0, top - pageSize);
    page = await readPositions(counted, state.order, total, start, top - start);
    total = page.total;
    const reachesFilled = page.items.some((item) => codec.ts(item) >= seenFrom);
    if (reachesFilled || page.start + page.items.length >= page.total) break;
    // Not proven contiguous with the filled part: nothing is taken from this page.
    if (requests >= maxPagesPerCall) return { state, requests };
    top = Math.min(top + pageSize - boundaryOverlap, page.total);
  }
  let lowest = seenFrom;
  for (const item of page.items) {
    const ts = codec.ts(item);
    if (ts >= seenFrom) continue;
    seen.add(ts, packId(item));
    lowest = Math.min(lowest, ts);
  }
  // Entries sharing the page's lowest second may continue below it: that second stays unfilled
  // and is read again by the next page (unless a whole page shares one second: then it moves on).
  const nextSeenFrom = page.start === 0 ? 0 : lowest + 1 < seenFrom ? lowest + 1 : lowest;
  return { state: { ...state, seen: seen.pack(), seenFrom: nextSeenFrom }, requests };
}
