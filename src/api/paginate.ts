import type { RateBudget } from './rate-budget.js';
import type { ListMeta } from './schemas/envelopes.js';

/** Paging of one request. `limit` above 100 is clamped by the server; 0 means the default (20). */
export interface PageParams {
  limit?: number;
  offset?: number;
  signal?: AbortSignal;
}

/** One page of a list endpoint. */
export interface Page<T> {
  readonly items: T[];
  readonly meta: ListMeta;
  /** Clock ms when the response arrived. */
  readonly receivedAt: number;
  /** The credential's budget as reported by this response. */
  readonly budget: RateBudget | undefined;
}

/** Why {@link paginate} may have missed entries. */
export interface PaginationGap {
  readonly reason: 'backtrack-budget-exhausted' | 'page-limit-reached';
  /** Offset of the page after which the gap may lie. */
  readonly offset: number;
  readonly pagesRead: number;
}

export interface IterateOptions {
  signal?: AbortSignal;
  /**
   * Called when the guarantee below could not be kept (list churning faster than
   * it can be read). The iteration still ends normally; the next poll catches up.
   */
  onGap?: (gap: PaginationGap) => void;
}

export interface PaginateOptions extends IterateOptions {
  /** Requested page size. Default 100 (the maximum). */
  pageSize?: number;
  /**
   * Entries of the previous page read again at the start of the next. Default 10.
   * Doubles (up to half a page) each time the iterator loses its place, so steady
   * removals between requests stop costing backtracks.
   */
  overlap?: number;
  /** How many times one iteration may step back to re-find its place. Default 50. */
  maxBacktracks?: number;
  /** Hard stop against lists that grow faster than they can be read. Default 10,000. */
  maxPages?: number;
}

export type PageFetcher<T> = (
  offset: number,
  limit: number,
  signal: AbortSignal | undefined,
) => Promise<Page<T>>;

/**
 * Reads a whole list, page by page, yielding each entry once.
 *
 * The API has no cursor and pages are not a snapshot, so positions move when
 * entries are inserted or removed between two page requests. The iterator copes
 * by tracking which entries it has "connected" to:
 *
 * - Pages overlap: the next request starts `overlap` positions before the end of
 *   the previous one (`offset + received - overlap`).
 * - A page counts as connected when it is the first page (offset 0) or contains
 *   at least one entry of an earlier connected page. Then every entry between
 *   what was read and the end of this page is in this page, whatever was
 *   inserted or removed before it.
 * - A page without such an entry (more removals ahead of it than the overlap, or
 *   an empty page past a shrunken list) is yielded from (it holds real entries)
 *   but not trusted: the iterator steps back by `pageSize - overlap` positions
 *   (or to the new end of the list) until it finds a connected page, at the
 *   latest at offset 0, and reads on from there. It also doubles the overlap
 *   (up to half a page), so a list that loses entries on every request (say a
 *   wave of failed collections) does not make it step back again and again.
 * - Entries are de-duplicated by `keyOf` (the spec's stable keys), so re-read
 *   overlap and entries shifted by head insertions are never yielded twice.
 * - It ends on a connected page when `offset + received >= meta.total` (the
 *   spec's rule), or when the page is shorter than the applied `meta.limit` or
 *   empty (the list ends there, whatever `meta.total` claims: no endless loop).
 *
 * Guarantee, for lists whose surviving entries keep their relative order and
 * whose keys are unique:
 * 1. No key is yielded twice.
 * 2. Every entry present from the first to the last page request is yielded,
 *    for any number of insertions anywhere and any number of removals anywhere,
 *    unless the backtrack budget or the page limit runs out; then `onGap` is called.
 *    Removals cost extra requests only when more than `overlap - 1` entries ahead
 *    of the read position vanish between two consecutive page requests; with
 *    the adaptive overlap, up to `pageSize / 2 - 1` per request are absorbed.
 * 3. Entries inserted or removed during the iteration may or may not be yielded
 *    (a removed entry can have been yielded before it vanished).
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  keyOf: (item: T) => string,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const pageSize = options.pageSize ?? 100;
  const maxOverlap = Math.max(1, Math.floor(pageSize / 2));
  let overlap = Math.min(options.overlap ?? 10, maxOverlap);
  const maxBacktracks = options.maxBacktracks ?? 50;
  const maxPages = options.maxPages ?? 10_000;
  const yielded = new Set<string>();
  // Keys of connected pages only: a page read after a possible gap must not vouch for connection.
  const connectedKeys = new Set<string>();
  let offset = 0;
  let backtracks = 0;
  let gapReported = false;

  for (let pagesRead = 1; ; pagesRead++) {
    const page = await fetchPage(offset, pageSize, options.signal);
    const keys = page.items.map(keyOf);
    const connected = offset === 0 || keys.some((key) => connectedKeys.has(key));

    for (const [index, item] of page.items.entries()) {
      const key = keys[index] as string;
      if (yielded.has(key)) continue;
      yielded.add(key);
      yield item;
    }

    if (pagesRead >= maxPages) {
      options.onGap?.({ reason: 'page-limit-reached', offset, pagesRead });
      return;
    }

    if (!connected) {
      if (backtracks < maxBacktracks) {
        backtracks++;
        const step = Math.max(1, pageSize - overlap);
        offset = Math.max(0, Math.min(offset - step, page.meta.total - step));
        overlap = Math.min(maxOverlap, overlap * 2);
        continue;
      }
      // Out of budget: accept the possible gap and read on, so the iteration still ends.
      if (!gapReported) options.onGap?.({ reason: 'backtrack-budget-exhausted', offset, pagesRead });
      gapReported = true;
    }
    for (const key of keys) connectedKeys.add(key);

    const received = page.items.length;
    // A connected page that reaches the end of the list ends the read: by the count (the spec's rule)
    // or by being shorter than the applied limit (the list ended here even if meta.total says otherwise).
    if (received === 0 || offset + received >= page.meta.total || received < page.meta.limit) return;
    // At least half a page of progress, also when the server applies a smaller limit than asked.
    offset += Math.max(1, received - Math.min(overlap, Math.floor(received / 2)));
  }
}
