import { z } from 'zod';
import { type ListItemCodec, newestFirst } from './list-order.js';

/**
 * What the engine remembers of one list (fundings, wall, one blog type): a window
 * of the most recent entries plus counts, so idle-cycle cost does not grow with
 * the list. Lists whose codec has `packId` (fundings) also keep every evicted key,
 * packed (`seen`, about 4 bytes an entry): supports can turn successful late and
 * appear below the window.
 *
 * At the new end, an entry counts as already seen ("known") when its key is in
 * `entries`, or when it is older than `floorTs`: the window always keeps whole
 * seconds, so everything evicted from it is strictly older than the floor. Below
 * the floor, the late search (list-late-search.ts) tells seen from late by `seen`.
 */
export interface ListState<T> {
  readonly order: 'newest-first' | 'oldest-first' | null;
  /** `meta.total` of the latest read of the list's new end. */
  readonly total: number;
  /** Unix seconds; entries strictly older are treated as seen. 0 while the window holds the whole list. */
  readonly floorTs: number;
  /** The most recent entries, newest first, at most about `windowSize`. */
  readonly entries: readonly T[];
  /** Epoch ms of the latest re-read of the whole window region (healing). */
  readonly lastFullReadAt: number;
  /** Set when counts disagreed or a page gap was seen: the next read re-reads the window region. */
  readonly needsHeal: boolean;
  /** Moving average of new entries per poll: sizes the next request and drives the scheduler. */
  readonly newPerPoll: number;
  /** Epoch ms when a new entry was last seen (null: never since the baseline). */
  readonly lastChangeAt: number | null;
  /**
   * Epoch ms of the list's first read (its baseline): "quiet since" for a list with no
   * change yet. Absent in states stored before it existed (then lastFullReadAt stands in).
   */
  readonly baselineAt?: number;
  /**
   * Lists whose codec has `packId` only: every key evicted below the floor, packed
   * (list-seen-keys.ts). Below the floor, an entry is known only when it is in here.
   */
  readonly seen?: string;
  /**
   * Unix seconds: `seen` lists every entry evicted from the window since the first read, so
   * it is complete only from the first read's floor up. Older entries predate the bot and
   * are filled in by idle reads (list-backfill.ts), lowering this to 0 when done.
   */
  readonly seenFrom?: number;
  /**
   * Entries the engine accounts for below the floor: those older than the baseline (never
   * listed in `seen`) plus those in `seen`, minus drops the totals revealed. `meta.total`
   * minus this minus the window is how many entries appeared below the window unseen.
   */
  readonly belowCount?: number;
  /** Entries the totals say appeared below the window and the late search has not found yet. */
  readonly lateDebt?: number;
  /**
   * Position (from the old end) the late sweep has reached: set when the binary search could
   * not place what the totals owe (a drop below the window hid the entry's position), then
   * the list below the window is read by membership, page by page, until the window.
   */
  readonly lateSweepAt?: number;
  /**
   * Drops the totals showed below the window that the search has not placed yet: placing one
   * (its pair is in `seen` but no longer listed) is what lets the engine take its notice back.
   */
  readonly dropDebt?: number;
  /** Epoch ms the last sweep below the window ended (see `lateSweepEveryMs`). */
  readonly lastSweepAt?: number;
  /** Fundings only: the supporters' arrival rhythm as text (arrival-rhythm.ts), for the planner's pace. */
  readonly rhythm?: string;
}

/** The zod schema of a stored {@link ListState} for items of `item`. */
export function listStateSchema<T>(item: z.ZodType<T>): z.ZodType<ListState<T>> {
  return z.object({
    order: z.enum(['newest-first', 'oldest-first']).nullable(),
    total: z.number().int().nonnegative(),
    floorTs: z.number(),
    entries: z.array(item),
    lastFullReadAt: z.number(),
    needsHeal: z.boolean(),
    newPerPoll: z.number().nonnegative(),
    lastChangeAt: z.number().nullable(),
    baselineAt: z.number().optional(),
    seen: z.string().optional(),
    seenFrom: z.number().optional(),
    belowCount: z.number().int().optional(),
    lateDebt: z.number().int().nonnegative().optional(),
    lateSweepAt: z.number().int().nonnegative().optional(),
    lastSweepAt: z.number().optional(),
    dropDebt: z.number().int().nonnegative().optional(),
    rhythm: z.string().max(1_000).optional(),
  }) as z.ZodType<ListState<T>>;
}

/** Whether `item` was already seen according to `state` (see {@link ListState}). */
export function makeKnownTest<T>(
  codec: ListItemCodec<T>,
  state: Pick<ListState<T>, 'entries' | 'floorTs'>,
): (item: T) => boolean {
  const keys = new Set(state.entries.map((e) => codec.key(e)));
  return (item) => keys.has(codec.key(item)) || codec.ts(item) < state.floorTs;
}

/**
 * Keeps the newest `windowSize` entries, rounded up to whole seconds, and
 * raises the floor to the oldest kept second. Keeping whole seconds matters:
 * an entry evicted while a same-second sibling stays would otherwise look new.
 */
export function trimWindow<T>(
  codec: ListItemCodec<T>,
  entries: Iterable<T>,
  floorTs: number,
  windowSize: number,
): { entries: T[]; floorTs: number } {
  const sorted = newestFirst(codec, entries);
  const cut = sorted[windowSize - 1];
  if (sorted.length <= windowSize || cut === undefined) return { entries: sorted, floorTs };
  const cutTs = codec.ts(cut);
  return { entries: sorted.filter((e) => codec.ts(e) >= cutTs), floorTs: Math.max(floorTs, cutTs) };
}
