import { z } from 'zod';
import type { HistoryPoint } from '../../domain/read-model.js';
import { getOrOlder, StoredValueError } from '../../lib/store.js';
import type { EngineServices } from '../context/engine-services.js';
import { rewardsSold } from '../events/feed-events.js';
import { appendHistory, historyPointSchema, historySchema } from './history.js';
import { stateKeys } from './project-state.js';
import { chunkBy, decodeRefs, digestOf } from './project-state-chunks.js';
import { type ChunkedLayout, emptyLayout, planCollection, writeCommit } from './project-state-writes.js';
import type { StateProject } from './state-slice.js';

/** Points per history chunk on average (about 3 KB): a new point rewrites the newest chunk only. */
const HISTORY_CHUNK_POINTS = 32;
const COLLECTION = 'history';

const historyLayouts = new WeakMap<StateProject, ChunkedLayout>();
/** Runtimes that read a single-value history from before the chunks: deleted after the first index write. */
const legacyHistory = new WeakSet<StateProject>();
const chunkSchema = z.array(historyPointSchema);

/**
 * Reads the history: the index (`history-index`, the refs of its chunks) and the chunks,
 * or the single value stored before the history was chunked (migrated by the next write).
 */
async function readHistory(ctx: EngineServices, rt: StateProject): Promise<HistoryPoint[]> {
  const project = rt.config.linkCaption;
  const [index, legacy] = await getOrOlder(
    ctx.store,
    [stateKeys.historyIndex(project), z.string()],
    [stateKeys.history(project), historySchema],
  );
  if (index === undefined) {
    historyLayouts.set(rt, emptyLayout());
    if (legacy !== undefined) legacyHistory.add(rt);
    return [...(legacy ?? [])];
  }
  const refs = decodeRefs(index);
  const chunks = await Promise.all(
    refs.map(async (ref) => {
      const key = stateKeys.chunk(project, COLLECTION, ref);
      const chunk = await ctx.store.get(key, chunkSchema);
      if (chunk === undefined)
        throw new StoredValueError(key, 'a chunk the history index references is missing');
      return chunk;
    }),
  );
  historyLayouts.set(rt, {
    collections: new Map([[COLLECTION, refs.map((r, i) => ({ ...r, digest: digestOf(chunks[i]) }))]]),
    stale: false,
  });
  return chunks.flat();
}

/**
 * Appends a funding snapshot to the project's history when appendHistory keeps it. Written
 * like the state: the chunks that changed (usually the newest only), into slots the stored
 * index does not reference, then the index; every write fenced by the lease token.
 */
export async function recordHistory(ctx: EngineServices, rt: StateProject, at: number): Promise<void> {
  const project = rt.projectCache?.value;
  if (project === undefined) return;
  if (rt.history === null) rt.history = await readHistory(ctx, rt).catch(() => []);
  const sold = rt.rewardsCache
    ? rewardsSold(rt.rewardsCache.value)
    : Object.fromEntries(Object.entries(rt.state?.rewards ?? {}).map(([id, f]) => [id, f.sold]));
  const next = appendHistory(
    rt.history,
    { at, funding: project.current_funding, supporters: project.supporter_count, rewardsSold: sold },
    ctx.settings.historyOptions,
  );
  if (next === null) return;
  const known = historyLayouts.get(rt);
  // After a failed write (or an unreadable history) the stored index is unknown: every chunk is written afresh.
  const layout =
    known === undefined || known.stale ? await staleHistoryLayout(ctx, rt.config.linkCaption) : known;
  const chunks = chunkBy(next, (p) => String(p.at), HISTORY_CHUNK_POINTS);
  const plan = planCollection(rt.config.linkCaption, layout, COLLECTION, chunks);
  await writeCommit(ctx, rt, layout, plan.writes, {
    key: stateKeys.historyIndex(rt.config.linkCaption),
    value: plan.refs,
  });
  historyLayouts.set(rt, { collections: new Map([[COLLECTION, plan.stored]]), stale: false });
  rt.history = next;
  if (legacyHistory.delete(rt)) {
    // The index supersedes it; a failed delete only leaves a value nothing reads any more.
    await ctx.store.delete(stateKeys.history(rt.config.linkCaption)).catch(() => false);
  }
}

async function staleHistoryLayout(ctx: EngineServices, project: string): Promise<ChunkedLayout> {
  const index = await ctx.store.get(stateKeys.historyIndex(project), z.string()).catch((error: unknown) => {
    if (error instanceof StoredValueError) return undefined;
    throw error;
  });
  const refs = index === undefined ? [] : decodeRefs(index);
  return {
    collections: new Map([[COLLECTION, refs.map((r) => ({ ...r, digest: undefined }))]]),
    stale: false,
  };
}

/** The history for a command (an unreadable one throws: the command says so). */
export async function loadHistory(ctx: EngineServices, rt: StateProject): Promise<readonly HistoryPoint[]> {
  if (rt.history === null) rt.history = await readHistory(ctx, rt);
  return rt.history;
}
