import { z } from 'zod';
import type { FeedHealthState } from '../../domain/feed-health.js';
import { SeenKeys } from '../lists/list-seen-keys.js';
import { type ListState, listStateSchema } from '../lists/list-state.js';
import {
  feedHealthStateSchema,
  type ListFeed,
  listFeeds,
  type ProjectState,
  projectStateSchema,
} from './project-state.js';
import { chunkBy } from './project-state-chunks.js';

/**
 * How a {@link ProjectState} is laid out in the store (see docs/architecture.md, "Project state"):
 *
 * - the HEAD (`engine/<project>/head`, about 1.5 KB, written by every commit, last): per list
 *   its cursor and counters (everything of a {@link ListState} but the window and the seen
 *   keys), `readAt`, `watchingAnnounced`, and where every chunk below is;
 * - COLLECTIONS of chunks, each chunk one store value written only when its content changed:
 *   `entries/<list>` (the window, cut by content into about 16 entries a chunk), `outbox`
 *   (about 8 events a chunk), `project` and `rewards` (one chunk each), `seen-index/<list>`
 *   (one chunk: the list of the seen-key chunks) and `seen/<list>` (the seen-key set, about
 *   256 keys, 1.4 KB, a chunk).
 *
 * An idle poll changes only the head. A supporter changes the head, the window's newest and
 * oldest chunks, one seen chunk and the seen index. No value grows with the list but the seen
 * index, by about 4 bytes per 256 supporters (1.6 KB at 100,000), written only when the set changes.
 */
export const layoutSizes = { entries: 16, outbox: 8, seen: 256 } as const;

/** What the head keeps of a list: the list state without its window and seen keys. */
export type ListCursor = Omit<ListState<unknown>, 'entries' | 'seen'>;

export interface StateHead {
  readonly version: 2;
  readonly readAt: Readonly<Record<string, number>>;
  readonly watchingAnnounced: boolean;
  /** The feed-health rule's stops (small: one record per stopped feed at most). */
  readonly feedHealth?: FeedHealthState;
  readonly lists: Readonly<Partial<Record<ListFeed, ListCursor>>>;
  /** Collection name -> its chunk references, in order (`3a,0b`; see project-state-chunks.ts). */
  readonly chunks: Readonly<Record<string, string>>;
}

const cursorSchema = (listStateSchema(z.unknown()) as unknown as z.ZodObject).omit({
  entries: true,
  seen: true,
}) as unknown as z.ZodType<ListCursor>;

export const stateHeadSchema: z.ZodType<StateHead> = z.object({
  version: z.literal(2),
  readAt: z.record(z.string(), z.number()),
  watchingAnnounced: z.boolean(),
  feedHealth: feedHealthStateSchema.optional(),
  lists: z.partialRecord(z.enum(listFeeds), cursorSchema),
  chunks: z.record(z.string(), z.string()),
}) as z.ZodType<StateHead>;

/** The collection holding the seen-key chunks' references (its one chunk is a refs string). */
export const seenIndexOf = (feed: ListFeed) => `seen-index/${feed}`;
export const seenOf = (feed: ListFeed) => `seen/${feed}`;

/** A seen-key chunk or seen index of the project's lists, by its store key. */
export function isSeenChunk(project: string, key: string): boolean {
  return listFeeds.some(
    (feed) =>
      key.startsWith(`engine/${project}/${seenOf(feed)}/`) ||
      key.startsWith(`engine/${project}/${seenIndexOf(feed)}/`),
  );
}
export const entriesOf = (feed: ListFeed) => `entries/${feed}`;

/** A window entry's identity for chunk cuts: fundings by second and user, posts by id. */
function entryCutKey(entry: unknown): string {
  const e = entry as { id?: unknown; support_timestamp?: unknown; user?: { id?: unknown } };
  if (e.id !== undefined) return String(e.id);
  if (e.support_timestamp !== undefined) return `${String(e.support_timestamp)}:${String(e.user?.id)}`;
  return JSON.stringify(entry);
}

/**
 * A list's chunks, cut once per list object: state lists are never changed in place, so a list
 * that did not change since the last commit is the same array and gets the same chunk arrays back
 * (whose digests digestOf then remembers). Every commit plans every collection; cutting and
 * digesting the unchanged ones again was a fifth of a replica's CPU at its first polls (bench scaleRedis).
 */
const cutLists = new WeakMap<readonly unknown[], unknown[][]>();
function chunksOf<T>(items: readonly T[], keyOf: (item: T) => string, averageSize: number): T[][] {
  let chunks = cutLists.get(items) as T[][] | undefined;
  if (chunks === undefined) {
    chunks = chunkBy(items, keyOf, averageSize);
    cutLists.set(items, chunks);
  }
  return chunks;
}

/**
 * The state's collections as chunk values, except the seen keys (split by
 * {@link seenChunks}, only when they changed: unpacking 100,000 keys is not free).
 */
export function splitState(state: ProjectState): {
  head: Omit<StateHead, 'chunks'>;
  chunks: Map<string, unknown[]>;
} {
  const chunks = new Map<string, unknown[]>();
  const lists: Partial<Record<ListFeed, ListCursor>> = {};
  for (const feed of listFeeds) {
    const list = state.lists[feed] as ListState<unknown> | undefined;
    if (list === undefined) continue;
    const { entries, seen: _seen, ...cursor } = list;
    lists[feed] = cursor;
    chunks.set(entriesOf(feed), chunksOf(entries, entryCutKey, layoutSizes.entries));
  }
  chunks.set(
    'outbox',
    chunksOf(state.outbox, (e) => e.event.id, layoutSizes.outbox),
  );
  chunks.set('project', state.project === null ? [] : [state.project]);
  chunks.set('rewards', state.rewards === null ? [] : [state.rewards]);
  return {
    head: {
      version: 2,
      readAt: state.readAt,
      watchingAnnounced: state.watchingAnnounced,
      ...(state.feedHealth !== undefined && Object.keys(state.feedHealth).length > 0
        ? { feedHealth: state.feedHealth }
        : {}),
      lists,
    },
    chunks,
  };
}

/**
 * The part of a head a restart depends on, as text: everything but the bookkeeping that only
 * times or sizes the next reads (`readAt`, and per list `newPerPoll`, `lastFullReadAt`,
 * `lastSweepAt`, the position of a running sweep `lateSweepAt`, the backfill's progress `seenFrom` (not its
 * end), the fundings' arrival `rhythm`). An idle poll changes only that bookkeeping (the moving average decays, the
 * read times move on), so comparing this text tells a commit worth writing from one that is
 * not: a restart that finds the bookkeeping some minutes old reads a little early, never
 * announces anything twice or misses it (project-state-store.ts, `commit`).
 */
export function durableHeadText(head: StateHead): string {
  const lists: Record<string, unknown> = {};
  for (const feed of listFeeds) {
    const cursor = head.lists[feed];
    if (cursor === undefined) continue;
    // The arrival rhythm changes only with new supporters, which change the window anyway.
    const {
      newPerPoll: _rate,
      lastFullReadAt: _healed,
      lastSweepAt: _swept,
      rhythm: _rhythm,
      lateSweepAt,
      seenFrom,
      ...kept
    } = cursor;
    // How far the backfill below the first read has come (with the seen keys it added): bookkeeping too,
    // except its end (0), which lets the daily sweep start (list-reader.ts).
    if (seenFrom !== undefined) (kept as Record<string, unknown>)['backfilled'] = seenFrom <= 0;
    // Where a sweep below the window stands moves with every idle read of a long list (20,000 supporters:
    // 200 pages, one head write each, 1.5 KB a poll on disk; issue 33). That a sweep runs is durable; its
    // position is bookkeeping: a restart that finds it some pages behind reads those pages again, and the
    // sweep decides by membership in `seen` (always written when it changes), so nothing is announced twice
    // or missed.
    lists[feed] = lateSweepAt === undefined ? kept : { ...kept, sweeping: true };
  }
  // Where the seen keys are stored is compared by the commit itself (project-state-store.ts: a commit that
  // changed only seen keys, and nothing here, is the backfill's).
  const chunks = Object.fromEntries(
    Object.entries(head.chunks).filter(
      ([collection]) => !listFeeds.some((f) => collection === seenIndexOf(f)),
    ),
  );
  return JSON.stringify({ ...head, readAt: undefined, lists, chunks });
}

/** The seen-key set of a list as packed chunks (see {@link SeenKeys.packChunks}). */
export function seenChunks(packed: string | undefined): string[] {
  return SeenKeys.unpack(packed).packChunks(layoutSizes.seen);
}

/**
 * Reassembles a state from its head and the values of its chunks (collection -> chunk
 * values in order), then validates it as a whole: a stored state that does not fit the
 * schema is refused (the caller re-baselines), never half-used.
 */
export function joinState(
  head: StateHead,
  chunks: ReadonlyMap<string, readonly unknown[]>,
): z.ZodSafeParseResult<ProjectState> {
  const flat = (name: string) => (chunks.get(name) ?? []).flatMap((c) => (Array.isArray(c) ? c : [c]));
  const lists: Record<string, unknown> = {};
  for (const feed of listFeeds) {
    const cursor = head.lists[feed];
    if (cursor === undefined) continue;
    const seen = chunks.get(seenOf(feed));
    lists[feed] = {
      ...cursor,
      entries: flat(entriesOf(feed)),
      ...(seen === undefined ? {} : { seen: SeenKeys.unpackChunks(seen as string[]).pack() }),
    };
  }
  return projectStateSchema.safeParse({
    version: 1,
    lists,
    readAt: head.readAt,
    project: chunks.get('project')?.[0] ?? null,
    rewards: chunks.get('rewards')?.[0] ?? null,
    watchingAnnounced: head.watchingAnnounced,
    outbox: flat('outbox'),
    ...(head.feedHealth !== undefined ? { feedHealth: head.feedHealth } : {}),
  });
}
