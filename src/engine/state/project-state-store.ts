import { z } from 'zod';
import { note } from '../../domain/engine-notes.js';
import { LeaseLostError } from '../../domain/errors.js';
import type { FundbotEvent } from '../../domain/events.js';
import { getOrOlder, type KeyValueStore, StoredValueError } from '../../lib/store.js';
import { noteError } from '../context/engine-project.js';
import type { EngineServices } from '../context/engine-services.js';
import {
  emptyProjectState,
  type ListFeed,
  listFeeds,
  type OutboxEntry,
  type ProjectState,
  projectStateSchema,
  stateKeys,
} from './project-state.js';
import { decodeRefs, digestOf, encodeRefs, type StoredChunk } from './project-state-chunks.js';
import {
  durableHeadText,
  isSeenChunk,
  joinState,
  type StateHead,
  seenChunks,
  seenIndexOf,
  seenOf,
  splitState,
  stateHeadSchema,
} from './project-state-layout.js';
import {
  type ChunkedLayout,
  emptyLayout,
  type PlannedWrite,
  planCollection,
  writeCommit,
} from './project-state-writes.js';
import type { StateProject } from './state-slice.js';

export { loadHistory, recordHistory } from './history-store.js';

/** What the store holds of a project's state, as its stored head says (one per project runtime). */
interface StateLayout extends ChunkedLayout {
  /** Per list, the packed seen keys as last committed: unchanged keys are not re-chunked. */
  readonly seen: Map<ListFeed, string>;
  /** A single-value state from before the split is stored: deleted after the first head is written. */
  legacy: boolean;
  /** The durable part of the head this runtime last wrote, and when (undefined: none written yet). */
  readonly written?: { readonly durable: string; readonly at: number };
}

/**
 * Longest a head with only its bookkeeping changed goes unwritten (see {@link durableHeadText}).
 * An idle project's head is then written 4 times an hour instead of at every poll (issue 22: an
 * idle poll cost 42.8 KB and 8.7 fsyncs on disk); a restart finds read times at most 15 minutes old.
 */
export const bookkeepingRefreshMs = 15 * 60_000;

const layouts = new WeakMap<StateProject, StateLayout>();

const chunkValue = z.unknown();

/** Reads the chunks of a collection, in order; a missing one makes the state unreadable. */
async function readCollection(
  store: KeyValueStore,
  linkCaption: string,
  collection: string,
  refsText: string,
): Promise<{ values: unknown[]; stored: StoredChunk[] }> {
  let refs: ReturnType<typeof decodeRefs>;
  try {
    refs = decodeRefs(refsText);
  } catch (error) {
    throw new StoredValueError(collection, String(error));
  }
  const values = await Promise.all(
    refs.map(async (ref) => {
      const key = stateKeys.chunk(linkCaption, collection, ref);
      const value = await store.get(key, chunkValue);
      if (value === undefined) throw new StoredValueError(key, 'a chunk the head references is missing');
      return value;
    }),
  );
  return { values, stored: refs.map((r, i) => ({ ...r, digest: digestOf(values[i]) })) };
}

/** Reads what a head references: every collection, and the seen keys through their index. */
async function readHead(
  store: KeyValueStore,
  linkCaption: string,
  head: StateHead,
): Promise<{ chunks: Map<string, unknown[]>; layout: StateLayout }> {
  const layout: StateLayout = { ...emptyLayout(), seen: new Map(), legacy: false };
  const chunks = new Map<string, unknown[]>();
  await Promise.all(
    Object.entries(head.chunks).map(async ([collection, refs]) => {
      const read = await readCollection(store, linkCaption, collection, refs);
      chunks.set(collection, read.values);
      layout.collections.set(collection, read.stored);
    }),
  );
  for (const feed of listFeeds) {
    const index = chunks.get(seenIndexOf(feed));
    if (index === undefined) continue;
    const refs = index[0];
    if (typeof refs !== 'string') throw new StoredValueError(seenIndexOf(feed), 'not a list of chunks');
    const seen = await readCollection(store, linkCaption, seenOf(feed), refs);
    if (seen.values.some((v) => typeof v !== 'string')) {
      throw new StoredValueError(seenOf(feed), 'a seen-key chunk is not packed text');
    }
    chunks.set(seenOf(feed), seen.values);
    layout.collections.set(seenOf(feed), seen.stored);
  }
  return { chunks, layout };
}

/** Reads the stored state: the head and its chunks, or a single-value state from before the split. */
async function readState(
  store: KeyValueStore,
  linkCaption: string,
): Promise<{ state: ProjectState; layout: StateLayout }> {
  // Migration: a state stored as one value is read once (with the head: one round trip); the first commit splits it.
  const [head, legacy] = await getOrOlder(
    store,
    [stateKeys.head(linkCaption), stateHeadSchema],
    [stateKeys.state(linkCaption), projectStateSchema],
  );
  if (head === undefined) {
    const layout: StateLayout = { ...emptyLayout(), seen: new Map(), legacy: legacy !== undefined };
    return { state: legacy ?? emptyProjectState(), layout };
  }
  const { chunks, layout } = await readHead(store, linkCaption, head);
  const parsed = joinState(head, chunks);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new StoredValueError(stateKeys.head(linkCaption), issues);
  }
  for (const feed of listFeeds) {
    const seen = parsed.data.lists[feed]?.seen;
    if (seen !== undefined) layout.seen.set(feed, seen);
  }
  return { state: parsed.data, layout };
}

/**
 * Loads the project's stored state (head, then its chunks in parallel). An unreadable
 * state re-baselines instead of turning into hundreds of notices. Costs one store read for
 * the head and one per chunk (about 40 for a project with a full window and 10,000 supporters).
 */
export async function loadState(ctx: EngineServices, rt: StateProject): Promise<ProjectState> {
  // Loaded here afresh: the sink is told of the project at its next offer (see StateProject.sinkAdopted).
  rt.sinkAdopted = false;
  try {
    const { state, layout } = await readState(ctx.store, rt.config.linkCaption);
    rt.state = state;
    layouts.set(rt, layout);
  } catch (error) {
    if (!(error instanceof StoredValueError)) throw error;
    // A corrupt or foreign state must not turn into hundreds of notices: start again from a baseline.
    ctx.logger.warn(
      { project: rt.config.linkCaption, err: error.message },
      'stored engine state unreadable: re-baselining',
    );
    noteError(rt, ctx.clock.now(), note('state-rebaselined', {}));
    rt.state = emptyProjectState();
    // What is stored is unknown: every chunk is written afresh, into slots the stored head may not reference.
    layouts.set(rt, { ...emptyLayout(), seen: new Map(), legacy: false, stale: true });
  }
  const snapshot = rt.state.project?.snapshot;
  const readAt = rt.state.readAt['project'];
  if (snapshot !== undefined && readAt !== undefined && rt.projectCache === null) {
    rt.projectCache = { value: snapshot, fetchedAt: readAt };
  }
  return rt.state;
}

/**
 * The state a project's store holds (what a restart would load), for tools and tests;
 * undefined when nothing is stored. Throws {@link StoredValueError} when it is unreadable.
 */
export async function readStoredState(
  store: KeyValueStore,
  linkCaption: string,
): Promise<ProjectState | undefined> {
  const hasHead = (await store.get(stateKeys.head(linkCaption), stateHeadSchema)) !== undefined;
  const hasLegacy = hasHead || (await store.get(stateKeys.state(linkCaption), z.unknown())) !== undefined;
  return hasHead || hasLegacy ? (await readState(store, linkCaption)).state : undefined;
}

/** The in-memory state, loaded on first use. */
export async function currentState(ctx: EngineServices, rt: StateProject): Promise<ProjectState> {
  return rt.state ?? loadState(ctx, rt);
}

/**
 * The layout to plan a commit against. After a failed write the stored head is read again
 * (one small read): whether the failed head write landed or not, the next commit then
 * writes only into slots the head actually stored does not reference.
 */
async function layoutFor(ctx: EngineServices, rt: StateProject): Promise<StateLayout> {
  const known = layouts.get(rt);
  if (known !== undefined && !known.stale) return known;
  const project = rt.config.linkCaption;
  // A store that cannot answer fails the commit (writing blind could hit a referenced slot); a head
  // that does not parse is already unreadable, so nothing a reader could use is at risk.
  const head = await ctx.store.get(stateKeys.head(project), stateHeadSchema).catch((error: unknown) => {
    if (error instanceof StoredValueError) return undefined;
    throw error;
  });
  const layout: StateLayout = { ...emptyLayout(), seen: new Map(), legacy: known?.legacy ?? false };
  if (head === undefined) return layout;
  for (const [collection, refs] of Object.entries(head.chunks)) {
    layout.collections.set(
      collection,
      decodeRefs(refs).map((r) => ({ ...r, digest: undefined })),
    );
  }
  for (const feed of listFeeds) {
    const index = head.chunks[seenIndexOf(feed)];
    if (index === undefined) continue;
    const [ref] = decodeRefs(index);
    const refs = ref && (await ctx.store.get(stateKeys.chunk(project, seenIndexOf(feed), ref), z.string()));
    const seen = decodeRefs(typeof refs === 'string' ? refs : '').map((r) => ({ ...r, digest: undefined }));
    layout.collections.set(seenOf(feed), seen);
  }
  return layout;
}

/**
 * Plans a commit: the chunks whose content changed and the head. Seen keys are re-chunked
 * only when they changed since the last commit (the packed text differs).
 */
function planState(
  project: string,
  layout: StateLayout,
  state: ProjectState,
): { writes: PlannedWrite[]; head: StateHead; next: StateLayout } {
  const { head, chunks } = splitState(state);
  const next: StateLayout = { ...emptyLayout(), seen: new Map(), legacy: false };
  const refs: Record<string, string> = {};
  const writes: PlannedWrite[] = [];
  const plan = (collection: string, values: readonly unknown[]) => {
    const p = planCollection(project, layout, collection, values);
    writes.push(...p.writes);
    next.collections.set(collection, p.stored);
    return p.refs;
  };
  for (const [collection, values] of chunks) {
    if (values.length > 0) refs[collection] = plan(collection, values);
  }
  for (const feed of listFeeds) {
    const seen = state.lists[feed]?.seen;
    if (seen === undefined) continue;
    next.seen.set(feed, seen);
    const storedSeen = layout.collections.get(seenOf(feed));
    const storedIndex = layout.collections.get(seenIndexOf(feed));
    if (layout.seen.get(feed) === seen && storedSeen !== undefined && storedIndex !== undefined) {
      // Unchanged since the last commit: the index and its chunks stay as stored.
      next.collections.set(seenOf(feed), storedSeen);
      next.collections.set(seenIndexOf(feed), storedIndex);
      refs[seenIndexOf(feed)] = encodeRefs(storedIndex);
      continue;
    }
    refs[seenIndexOf(feed)] = plan(seenIndexOf(feed), [plan(seenOf(feed), seenChunks(seen))]);
  }
  return { writes, head: { ...head, chunks: refs }, next };
}

/**
 * The one durable step: seen-state and new outbox entries in one commit. The chunks that
 * changed are written first, each into the slot the stored head does not reference, then
 * the head, which makes them current: a crash (kill -9) between any two writes leaves the
 * stored head on the previous commit's chunks, so a restart sees exactly the previous
 * commit and re-derives the same events from the same cursors (docs/architecture.md,
 * "Project state"). An idle poll writes the head only (about 1.5 KB).
 * The in-memory copy changes only after the head write succeeded, so a failed commit
 * behaves exactly like a crash before it. Inside {@link inOneCommit} (a project's poll
 * cycle) the commit is held and the cycle's end writes it with the others.
 *
 * Every write is fenced: it lands only while this replica's lease token is still the project's
 * current one (compared atomically in Redis). A replica that paused past its TTL and lost the
 * project to another throws {@link LeaseLostError} here, forgets the project and writes nothing more.
 */
export async function commit(
  ctx: EngineServices,
  rt: StateProject,
  next: ProjectState,
  events: readonly FundbotEvent[],
): Promise<void> {
  const now = ctx.clock.now();
  const fresh: OutboxEntry[] = events.map((event) => ({
    event,
    attempts: 0,
    nextAttemptAt: now,
    lastError: null,
  }));
  const state: ProjectState = fresh.length === 0 ? next : { ...next, outbox: [...next.outbox, ...fresh] };
  const held = heldCycles.get(rt);
  if (held !== undefined) {
    held.events += fresh.length;
    rt.state = state;
    return;
  }
  await writeState(ctx, rt, state, fresh.length);
}

/** A poll cycle whose commits are held: the state before it, and the events its commits added. */
interface HeldCycle {
  readonly before: ProjectState | null;
  events: number;
}
const heldCycles = new WeakMap<StateProject, HeldCycle>();

/** True while a poll cycle of the project runs: its state in memory may not be stored yet. */
export const inCycle = (rt: StateProject): boolean => heldCycles.has(rt);

/**
 * Runs one poll cycle of a project with its commits held, then writes the state once: the polls
 * of a cycle (at a first poll, all five feeds) landed as one commit each, the head rewritten every
 * time (bench scaleRedis: 9.4 KB to Redis per project where 3 KB are the state, and six fenced
 * scripts instead of two). The cycle's polls see each other's state in memory as before; nothing
 * of it is offered for delivery before the write landed (the caller offers the outbox after).
 * When the write fails, the state in memory goes back to what it was before the cycle, as if
 * the process had crashed before it: the polls are read again and re-derive the same events.
 * Throws the write's error. A cycle inside a cycle is written by the outer one.
 */
export async function inOneCommit(
  ctx: EngineServices,
  rt: StateProject,
  cycle: () => Promise<void>,
): Promise<void> {
  if (heldCycles.has(rt)) return cycle();
  const held: HeldCycle = { before: rt.state, events: 0 };
  heldCycles.set(rt, held);
  let failure: { error: unknown } | undefined;
  try {
    await cycle();
  } catch (error) {
    failure = { error };
  } finally {
    heldCycles.delete(rt);
  }
  // The polls before a failure are as good as ever: written whatever happened after them.
  const state = rt.state;
  if (state !== null && state !== held.before) {
    try {
      await writeState(ctx, rt, state, held.events);
    } catch (error) {
      // A lost lease has forgotten the project already (lease-tenure.ts): nothing to go back to.
      if (!(error instanceof LeaseLostError)) rt.state = held.before;
      throw error;
    }
  }
  if (failure !== undefined) throw failure.error;
}

/** Writes `state` (with `freshEvents` new outbox entries since the last write) as the project's state. */
async function writeState(
  ctx: EngineServices,
  rt: StateProject,
  state: ProjectState,
  freshEvents: number,
): Promise<void> {
  const now = ctx.clock.now();
  const project = rt.config.linkCaption;
  const layout = await layoutFor(ctx, rt);
  const plan = planState(project, layout, state);
  const durable = durableHeadText(plan.head);
  const bookkeepingOnly =
    freshEvents === 0 &&
    !layout.legacy &&
    layout.written?.durable === durable &&
    now - layout.written.at < bookkeepingRefreshMs;
  if (bookkeepingOnly && plan.writes.length === 0) {
    // Nothing a restart depends on changed: the stored head stays as it is (see bookkeepingRefreshMs).
    layouts.set(rt, { ...plan.next, written: layout.written });
    rt.state = state;
    return;
  }
  if (bookkeepingOnly && plan.writes.every((w) => isSeenChunk(project, w.key))) {
    // Only seen keys older than the first read changed (the backfill, list-backfill.ts: a 20,000-supporter list
    // adds 100 a read for 200 reads, a seen chunk, the index and the head each time, issue 33): they count as seen
    // whether stored or not, so they wait for the next commit that writes (at most bookkeepingRefreshMs). The
    // stored state stays the previous commit, whole; the layout stays what is stored, so that commit writes
    // every seen chunk changed since (a restart reads those pages again, and announces nothing from them).
    rt.state = state;
    return;
  }
  await writeCommit(ctx, rt, layout, plan.writes, { key: stateKeys.head(project), value: plan.head });
  layouts.set(rt, { ...plan.next, written: { durable, at: now } });
  if (layout.legacy) {
    // The head supersedes it; a failed delete only leaves a value nothing reads any more.
    await ctx.store.delete(stateKeys.state(project)).catch(() => false);
  }
  rt.state = state;
  ctx.counters.eventsEmitted += freshEvents;
}
