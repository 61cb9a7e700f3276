import type { FreshEntry, ListReadOptions } from './list-assessment.js';
import type { FetchListPage } from './list-fetch.js';
import type { ListItemCodec } from './list-order.js';
import { readPositions } from './list-positions.js';
import type { SeenKeys } from './list-seen-keys.js';
import type { ListState } from './list-state.js';

export interface SweepProgress<T> {
  /** Where the sweep continues next read; undefined when it reached the window. */
  readonly at: number | undefined;
  readonly total: number;
  readonly found: readonly FreshEntry<T>[];
  /** Entries added to `seen` (each one pays off one owed entry). */
  readonly added: number;
  /** Pairs removed from `seen`: no longer listed. */
  readonly dropped: readonly { readonly ts: number; readonly id: number }[];
}

/**
 * The late search's fallback: reads the list below the window from the old end, page by
 * page, and decides by membership alone. An entry below the floor that is not in `seen` is
 * new; a pair of `seen` inside a page's time span but missing from it dropped out and is
 * removed. It is needed when the binary search's position arithmetic was misled (a drop
 * below the window and a late success in the same stretch cancel out in the totals), and
 * it costs what a full read below the window costs (5,000 entries: 50 requests), spread
 * over reads at `lateSearchPages` each. Consecutive pages share `pageOverlap` entries, so
 * up to that many drops between two pages cannot make the sweep skip an entry.
 */
export async function sweepBelowWindow<T>(input: {
  readonly state: ListState<T>;
  readonly seen: SeenKeys;
  readonly fetchPage: FetchListPage<T>;
  readonly codec: ListItemCodec<T>;
  readonly options: ListReadOptions;
  readonly from: number;
  /** Pages this call may read. */
  readonly pages: number;
  readonly isBelow: (item: T) => boolean;
}): Promise<SweepProgress<T>> {
  const { state, seen, codec, options, isBelow } = input;
  const packId = codec.packId?.bind(codec);
  if (packId === undefined || state.order === null) {
    return { at: undefined, total: state.total, found: [], added: 0, dropped: [] };
  }
  let total = state.total;
  let at = input.from;
  const found: FreshEntry<T>[] = [];
  let added = 0;
  const dropped: { ts: number; id: number }[] = [];
  const end = () => Math.max(0, total - state.entries.length);
  for (let read = 0; read < input.pages && at < end(); read++) {
    const page = await readPositions(
      input.fetchPage,
      state.order,
      total,
      at,
      Math.min(options.pageSize, end() - at),
    );
    total = page.total;
    page.items.forEach((item, index) => {
      if (!isBelow(item) || !seen.add(codec.ts(item), packId(item))) return;
      added += 1;
      found.push({ item, key: codec.key(item), position: page.start + index + 1 });
    });
    const first = page.items[0];
    const last = page.items.at(-1);
    if (first === undefined || last === undefined) break;
    const listed = new Set(page.items.map((item) => `${codec.ts(item)}:${packId(item)}`));
    for (const pair of seen.between(codec.ts(first), codec.ts(last))) {
      if (!listed.has(`${pair.ts}:${pair.id}`) && seen.delete(pair.ts, pair.id)) dropped.push(pair);
    }
    const step =
      page.items.length > options.pageOverlap ? page.items.length - options.pageOverlap : page.items.length;
    at = page.start + step;
  }
  return { at: at < end() ? at : undefined, total, found, added, dropped };
}
