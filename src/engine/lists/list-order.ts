/** Which end of a time-ordered list receives new entries. The spec does not say, so fundbot detects it. */
export type ListOrder = 'newest-first' | 'oldest-first';

/** How the engine reads an entry's position in time and its stable key. */
export interface ListItemCodec<T> {
  /** The spec's stable key (wall/blog: id; fundings: support_timestamp + user). */
  key(item: T): string;
  /** Unix seconds of the entry (support_timestamp, created_timestamp, release_timestamp). */
  ts(item: T): number;
  /** Tie-breaker within one second (wall and blog ids grow); undefined when the list has none. */
  tieId(item: T): number | undefined;
  /**
   * An integer that, with `ts`, identifies the entry exactly (fundings: the user id). When
   * present, every key evicted from the window is kept (list-seen-keys.ts) and entries that
   * appear below the window are searched for (list-late-search.ts) instead of assumed seen.
   */
  packId?(item: T): number;
}

/** Compares two entries by time, then id: positive when `a` is newer. */
export function compareByTime<T>(codec: ListItemCodec<T>, a: T, b: T): number {
  const byTs = codec.ts(a) - codec.ts(b);
  if (byTs !== 0) return byTs;
  return (codec.tieId(a) ?? 0) - (codec.tieId(b) ?? 0);
}

/**
 * Detects the order of a list from one page (entries in API order): the first
 * and the last entry are compared by timestamp, then id. Returns null when the
 * page cannot tell (fewer than two entries, or all in the same second without ids).
 */
export function detectOrder<T>(codec: ListItemCodec<T>, items: readonly T[]): ListOrder | null {
  const first = items[0];
  const last = items.at(-1);
  if (first === undefined || last === undefined || items.length < 2) return null;
  const cmp = compareByTime(codec, first, last);
  if (cmp > 0) return 'newest-first';
  if (cmp < 0) return 'oldest-first';
  return null;
}

/** Sorts a copy newest first. */
export function newestFirst<T>(codec: ListItemCodec<T>, items: Iterable<T>): T[] {
  return [...items].sort((a, b) => compareByTime(codec, b, a));
}
