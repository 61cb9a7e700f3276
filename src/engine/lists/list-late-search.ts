import type { FreshEntry, ListReadOptions } from './list-assessment.js';
import type { FetchListPage } from './list-fetch.js';
import { sweepBelowWindow } from './list-late-sweep.js';
import type { ListItemCodec } from './list-order.js';
import { readPositions } from './list-positions.js';
import { SeenKeys } from './list-seen-keys.js';
import type { ListState } from './list-state.js';

export interface LateSearchResult<T> {
  readonly state: ListState<T>;
  /** Entries found below the window that were never seen, oldest first. */
  readonly found: readonly FreshEntry<T>[];
  readonly requests: number;
  /**
   * Entries the totals owed that the search could not place (older than the baseline, or
   * masked by unseen drops): accepted as seen so the search does not repeat every poll.
   */
  readonly unfound: number;
  /** Pairs of `seen` found no longer listed: supports that dropped out below the window. */
  readonly droppedBelow: readonly { readonly ts: number; readonly id: number }[];
}

/**
 * Finds the entries that appeared below the window (a support that turned successful
 * late is listed at its own, older `support_timestamp`), at most `lateSearchPages`
 * requests per read; what is left is looked for at the next read.
 *
 * Soundness: below the floor an entry is new exactly when its (ts, id) is not in the
 * state's `seen` set (list-seen-keys.ts), so nothing seen is announced again and
 * nothing unseen is taken for seen. Entries older than the first read (`seenFrom`) were
 * never listed in `seen`: they sit at the bottom, are counted (`belowCount - seen.size`)
 * and count as seen.
 *
 * Locating: with positions counted from the old end, Δ(e) = position(e) - rank of e in
 * `seen` grows by one past every unseen entry. The totals say how many are owed (the
 * state's `lateDebt`); a binary search on Δ reads one page per step, so an entry 100,000
 * deep is found in about 11 requests, 5,000 deep in about 7. A page also shows drops:
 * `seen` pairs inside its time span but missing from it are removed, keeping Δ exact.
 * Shifts during the search only move positions: membership, not position, decides.
 */
export async function searchLateEntries<T>(input: {
  readonly state: ListState<T>;
  readonly fetchPage: FetchListPage<T>;
  readonly codec: ListItemCodec<T>;
  readonly options: ListReadOptions;
  readonly now: number;
  /** This read re-read the whole window region: a drop not placed below is not in the window either. */
  readonly healed?: boolean;
}): Promise<LateSearchResult<T>> {
  const { codec, options, fetchPage } = input;
  const packId = codec.packId?.bind(codec);
  const order = input.state.order;
  let debt = input.state.lateDebt ?? 0;
  let dropDebt = input.state.dropDebt ?? 0;
  const droppedBelow: { ts: number; id: number }[] = [];
  const sweeping = input.state.lateSweepAt;
  if (packId === undefined || order === null || (debt <= 0 && dropDebt <= 0 && sweeping === undefined)) {
    return { state: input.state, found: [], requests: 0, unfound: 0, droppedBelow };
  }
  const seen = SeenKeys.unpack(input.state.seen);
  const windowKeys = new Set(input.state.entries.map((e) => codec.key(e)));
  const floorTs = input.state.floorTs;
  const seenFrom = input.state.seenFrom ?? floorTs;
  // Below the window and after the first read: where `seen` is complete.
  const isBelow = (item: T) =>
    codec.ts(item) < floorTs && codec.ts(item) >= seenFrom && !windowKeys.has(codec.key(item));
  let belowCount = input.state.belowCount ?? 0;
  let total = input.state.total;
  const found: FreshEntry<T>[] = [];
  let requests = 0;
  let exhausted = false;
  const pageSize = options.pageSize;
  const counted: FetchListPage<T> = (offset, limit) => {
    requests += 1;
    return fetchPage(offset, limit);
  };
  let sweepAt = sweeping;
  let sweptAll = false;
  /** The sweep read everything below the window: belowCount is `seen`'s size, nothing to restore. */
  let exactBelow = false;
  if (sweepAt === undefined) {
    search: while ((debt > 0 || dropDebt > 0) && requests < options.lateSearchPages) {
      let lo = 0;
      let hi = Math.max(0, total - input.state.entries.length);
      // Δ just above the bottom: entries older than the baseline are not in `seen` (none once filled).
      let deltaLo = seenFrom <= 0 ? 0 : belowCount - seen.size;
      while (lo < hi && requests < options.lateSearchPages) {
        const start = Math.max(lo, Math.floor((lo + hi) / 2) - Math.floor(pageSize / 2));
        const page = await readPositions(counted, order, total, start, Math.min(pageSize, hi - start));
        total = page.total;
        let changed = false;
        page.items.forEach((item, index) => {
          if (!isBelow(item) || seen.has(codec.ts(item), packId(item))) return;
          seen.add(codec.ts(item), packId(item));
          belowCount += 1;
          debt -= 1;
          found.push({ item, key: codec.key(item), position: page.start + index + 1 });
          changed = true;
        });
        const first = page.items[0];
        const last = page.items.at(-1);
        if (first !== undefined && last !== undefined) {
          const listed = new Set(page.items.map((item) => `${codec.ts(item)}:${packId(item)}`));
          for (const pair of seen.between(codec.ts(first), codec.ts(last))) {
            if (!listed.has(`${pair.ts}:${pair.id}`) && seen.delete(pair.ts, pair.id)) {
              droppedBelow.push(pair);
              // A drop the totals showed was already taken off belowCount; one they did not show
              // (a late entry cancelled it) is taken off now.
              if (dropDebt > 0) dropDebt -= 1;
              else belowCount -= 1;
              changed = true;
            }
          }
        }
        if (changed) continue search;
        const anchor = page.items.findIndex(isBelow);
        const anchorItem = page.items[anchor];
        if (anchorItem === undefined) {
          // Older than the first read: look higher; at or above the floor: look lower.
          if (last !== undefined && codec.ts(last) < seenFrom) lo = start + page.items.length;
          else hi = start;
          continue;
        }
        const delta = page.start + anchor - seen.rank(codec.ts(anchorItem), packId(anchorItem));
        // A late entry below raises Δ, a drop (a pair still in `seen`) lowers it.
        if (delta !== deltaLo) hi = start;
        else {
          lo = start + Math.max(1, page.items.length);
          deltaLo = delta;
        }
      }
      if (lo >= hi) exhausted = true;
      break;
    }
    // Exhausted with something still owed: positions were misled (a drop and a late success in
    // the same stretch). Where `seen` is complete, a sweep by membership settles it.
    if (exhausted && debt > 0 && seenFrom <= 0) {
      sweepAt = 0;
      exhausted = false;
    }
  }
  if (sweepAt !== undefined) {
    const sweep = await sweepBelowWindow({
      state: { ...input.state, total },
      seen,
      fetchPage: counted,
      codec,
      options,
      from: sweepAt,
      pages: Math.max(1, options.lateSearchPages - requests),
      isBelow,
    });
    total = sweep.total;
    found.push(...sweep.found);
    droppedBelow.push(...sweep.dropped);
    // As in the search: drops beyond the debt were not taken off belowCount yet.
    belowCount -= Math.max(0, sweep.dropped.length - dropDebt);
    dropDebt = Math.max(0, dropDebt - sweep.dropped.length);
    belowCount += sweep.added;
    debt = Math.max(0, debt - sweep.added);
    sweepAt = sweep.at;
    sweptAll = sweepAt === undefined;
    if (sweepAt === undefined) {
      // Read whole below the window: `seen` is now exact there, and so is the count.
      if (seenFrom <= 0) {
        belowCount = seen.size;
        exactBelow = true;
      }
      exhausted = true;
    }
  }
  found.sort((a, b) => a.position - b.position);
  const unfound = exhausted ? Math.max(0, debt) : 0;
  // Drops not placed below the window most likely sit in the window region under this read (a
  // support a few pages down that failed): unless this read was a heal already, the next read
  // re-reads the window region (windowSize / pageSize requests, once) and attributes them by name.
  // Until then they are counted back where they are (archiveEvicted subtracted them below).
  const healForDrops = exhausted && dropDebt > 0 && input.healed !== true ? dropDebt : 0;
  // Not placed after a heal either (hidden by a late entry): not looked for again; the count was
  // corrected when the totals showed them, and the daily sweep still finds them.
  if (exhausted) dropDebt = 0;
  const { lateSweepAt: _done, dropDebt: _placed, ...rest } = input.state;
  return {
    state: {
      ...rest,
      seen: seen.pack(),
      belowCount: belowCount + unfound + (exactBelow ? 0 : healForDrops),
      needsHeal: input.state.needsHeal || healForDrops > 0,
      lateDebt: Math.max(0, debt - unfound),
      ...(sweepAt !== undefined ? { lateSweepAt: sweepAt } : {}),
      ...(sweptAll ? { lastSweepAt: input.now } : {}),
      ...(dropDebt > 0 ? { dropDebt } : {}),
    },
    found,
    requests,
    unfound,
    droppedBelow,
  };
}
