import { compareByTime, type ListItemCodec, type ListOrder, newestFirst } from './list-order.js';
import { SeenKeys } from './list-seen-keys.js';
import { type ListState, trimWindow } from './list-state.js';

export interface ListReadOptions {
  /** Known entries re-read at the new end on every poll (drop detection, shift tolerance). Default 20. */
  readonly overlap: number;
  /** Entries shared by consecutive pages of one read, to prove there is no gap between them. Default 5. */
  readonly pageOverlap: number;
  /** The API's maximum page size. Default 100. */
  readonly pageSize: number;
  /** Entries kept in the window. Default 500. */
  readonly windowSize: number;
  /** Pages one read may spend finding entries that appeared below the window. Default 12. */
  readonly lateSearchPages: number;
  /**
   * How often the list below the window is swept by membership (list-late-sweep.ts), for the
   * one change the totals cannot show: a drop and a late success between two reads. Default 24 h.
   */
  readonly lateSweepEveryMs: number;
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
  lateSearchPages: 12,
  lateSweepEveryMs: 24 * 3_600_000,
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
  /** Entries the totals said appeared below the window that the late search could not place. */
  readonly lateUnfound?: number;
  /**
   * Requests of this read that were not the poll itself (the fill of `seen`, the late search and
   * sweeps below the window): spent from the budget, but kept out of the feed's per-poll cost so a
   * one-off search does not stretch the feed's interval for the polls after it.
   */
  readonly oneOffRequests?: number;
  /** Entries found dropped below the window (their (ts, id) pair only: names are not kept there). */
  readonly droppedBelow?: readonly { readonly ts: number; readonly id: number }[];
}

export interface RawRead<T> {
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

/** What list-fetch.ts readBaseline found at a list's first read. */
export interface BaselineRead<T> {
  readonly items: T[];
  readonly total: number;
  readonly order: ListOrder | null;
  /** The first page held the whole list. */
  readonly wholeList: boolean;
}

/**
 * The pure half of a list read, for a first read: the fetched pages become the
 * window; nothing is announced. See list-reader.ts for the whole algorithm.
 */
export function assessBaseline<T>(
  baseline: BaselineRead<T>,
  codec: ListItemCodec<T>,
  options: ListReadOptions,
  now: number,
  requests: number,
): ListReadResult<T> {
  const window = trimWindow(
    codec,
    baseline.items,
    baseline.wholeList ? 0 : minTs(codec, baseline.items) + 1,
    options.windowSize,
  );
  return {
    kind: 'baseline',
    state: {
      order: baseline.order,
      total: baseline.total,
      ...window,
      ...belowAccounting(codec, baseline.total, window),
      lastFullReadAt: now,
      needsHeal: false,
      newPerPoll: 0,
      lastChangeAt: null,
      baselineAt: now,
    },
    fresh: [],
    dropped: 0,
    requests,
  };
}

/**
 * The pure half of an incremental (or healing) read: given the stored state and
 * what the pages held, decides what is new, what dropped out, whether the flood
 * guard holds the new entries, and the state to store. Steps 3 to 6 of list-reader.ts.
 */
export function assessRead<T>(input: {
  readonly state: ListState<T>;
  readonly read: RawRead<T>;
  readonly known: (item: T) => boolean;
  readonly codec: ListItemCodec<T>;
  readonly options: ListReadOptions;
  readonly now: number;
  /** A heal was asked for (or flagged by the previous read). */
  readonly healing: boolean;
  /** The read covered the whole window region (a heal, or a list of unknown order). */
  readonly heal: boolean;
  readonly requests: number;
}): ListReadResult<T> {
  const { state, read, known, codec, options, now, healing, heal, requests } = input;
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
    const rebuilt = trimWindow(codec, collected, minTs(codec, collected) + 1, options.windowSize);
    return {
      kind: healing ? 'heal' : 'incremental',
      state: {
        order: observedOrder,
        total: read.total,
        ...rebuilt,
        ...belowAccounting(codec, read.total, rebuilt),
        lastFullReadAt: now,
        needsHeal: false,
        newPerPoll: state.newPerPoll,
        lastChangeAt: state.lastChangeAt,
        ...baselineOf(state),
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
  const needsHeal =
    (missedSomething && !heal) || !read.contiguous || !read.reachedNewEnd || orderContradicted;
  const { healForDrop, ...books } = archiveEvicted(
    codec,
    state,
    [...kept, ...fresh],
    window.entries,
    read.total,
    needsHeal,
    heal,
  );
  return {
    kind: healing ? 'heal' : 'incremental',
    state: {
      order: observedOrder,
      total: read.total,
      ...window,
      ...books,
      lastFullReadAt: heal ? now : state.lastFullReadAt,
      needsHeal: needsHeal || healForDrop,
      newPerPoll,
      lastChangeAt: fresh.length > 0 ? now : state.lastChangeAt,
      ...baselineOf(state),
    },
    fresh: freshEntries,
    dropped: droppedKeys.size,
    requests,
  };
}

/**
 * A (re)baseline's accounting below the floor: everything there counts as seen, nothing is
 * owed, and `seen` starts empty from this floor up (after a flood the old keys are suspect).
 */
function belowAccounting<T>(
  codec: ListItemCodec<T>,
  total: number,
  window: { entries: readonly T[]; floorTs: number },
): Pick<ListState<T>, 'seen' | 'seenFrom' | 'belowCount' | 'lateDebt'> {
  if (codec.packId === undefined) return {};
  return {
    seen: '',
    seenFrom: window.floorTs,
    belowCount: Math.max(0, total - window.entries.length),
    lateDebt: 0,
  };
}

/**
 * Adds the keys the window evicted to `seen`, and balances the books: `meta.total` against
 * the entries accounted for below the floor plus the window. Fewer listed than accounted:
 * drops below the read region. Where `seen` is complete they are placed by name: a read that
 * did not cover the window region asks for a heal first (`healForDrop`), the count left as it
 * was; what a heal still finds missing lies below the window and becomes the late search's drop
 * debt. More: entries appeared unseen; once the window region is consistent (no heal pending)
 * they lie below the window and become the late search's debt.
 */
function archiveEvicted<T>(
  codec: ListItemCodec<T>,
  state: ListState<T>,
  before: readonly T[],
  after: readonly T[],
  total: number,
  needsHeal: boolean,
  /** This read covered the whole window region. */
  heal: boolean,
): Pick<
  ListState<T>,
  'seen' | 'seenFrom' | 'belowCount' | 'lateDebt' | 'lateSweepAt' | 'lastSweepAt' | 'dropDebt'
> & { readonly healForDrop: boolean } {
  const packId = codec.packId?.bind(codec);
  if (packId === undefined) return { healForDrop: false };
  const keptKeys = new Set(after.map((e) => codec.key(e)));
  const evicted = before.filter((e) => !keptKeys.has(codec.key(e)));
  let seen = state.seen ?? '';
  if (evicted.length > 0) {
    const set = SeenKeys.unpack(seen);
    for (const e of evicted) set.add(codec.ts(e), packId(e));
    seen = set.pack();
  }
  let belowCount = (state.belowCount ?? Math.max(0, state.total - state.entries.length)) + evicted.length;
  const gap = total - belowCount - after.length;
  // Where `seen` is complete, a drop below the window can be placed and its notice taken back.
  const filled = (state.seenFrom ?? state.floorTs) <= 0;
  // Such a drop most likely sits in the window region under the read (supports fail minutes to hours
  // after they arrive): the heal's re-read of the region (its pages, once) places it by name. Searched
  // below the window first, it cost a binary search there that found nothing (about 7 pages at 5,000
  // deep), then the same heal: on the bench's flat day most of the deeper fundings pages.
  const healForDrop = gap < 0 && filled && !needsHeal && !heal;
  // Not clamped at 0: a drop the read could not attribute may still sit in the window, and is
  // counted here again when it is evicted.
  if (gap < 0 && !healForDrop) belowCount += gap;
  const dropDebt = (state.dropDebt ?? 0) + (gap < 0 && filled && !needsHeal && heal ? -gap : 0);
  const lateDebt = needsHeal ? (state.lateDebt ?? 0) : Math.max(0, gap);
  return {
    healForDrop,
    seen,
    seenFrom: state.seenFrom ?? state.floorTs,
    belowCount,
    lateDebt,
    // A sweep under way goes on from where it stopped (list-late-sweep.ts).
    ...(state.lateSweepAt !== undefined ? { lateSweepAt: state.lateSweepAt } : {}),
    ...(state.lastSweepAt !== undefined ? { lastSweepAt: state.lastSweepAt } : {}),
    ...(dropDebt > 0 ? { dropDebt } : {}),
  };
}

/** Keeps the baseline time through every later read (states stored before it existed have none). */
function baselineOf<T>(state: ListState<T>): { baselineAt?: number } {
  return state.baselineAt !== undefined ? { baselineAt: state.baselineAt } : {};
}

function minTs<T>(codec: ListItemCodec<T>, items: readonly T[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const item of items) min = Math.min(min, codec.ts(item));
  return Number.isFinite(min) ? min : 0;
}
