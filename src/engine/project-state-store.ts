import { LeaseLostError } from '../domain/errors.js';
import type { FundbotEvent } from '../domain/events.js';
import type { HistoryPoint } from '../domain/read-model.js';
import { StoredValueError } from '../lib/store.js';
import type { EngineContext } from './engine-context.js';
import { rewardsSold } from './feed-events.js';
import { appendHistory, historySchema } from './history.js';
import { commitTokenOf, leaseLost, leaseResourceOf } from './lease-tenure.js';
import { noteError, type ProjectRuntime } from './project-runtime.js';
import {
  emptyProjectState,
  type OutboxEntry,
  type ProjectState,
  projectStateSchema,
  stateKeys,
} from './project-state.js';

/**
 * Loads the project's stored state (one value: seen-state and outbox). An unreadable
 * value re-baselines instead of turning into hundreds of notices. Costs one store read.
 */
export async function loadState(ctx: EngineContext, rt: ProjectRuntime): Promise<ProjectState> {
  try {
    rt.state =
      (await ctx.store.get(stateKeys.state(rt.config.linkCaption), projectStateSchema)) ??
      emptyProjectState();
  } catch (error) {
    if (!(error instanceof StoredValueError)) throw error;
    // A corrupt or foreign state must not turn into hundreds of notices: start again from a baseline.
    ctx.logger.warn(
      { project: rt.config.linkCaption, err: error.message },
      'stored engine state unreadable: re-baselining',
    );
    noteError(rt, ctx.clock.now(), `stored state unreadable, re-baselined: ${error.issues}`);
    rt.state = emptyProjectState();
  }
  const snapshot = rt.state.project?.snapshot;
  const readAt = rt.state.readAt['project'];
  if (snapshot !== undefined && readAt !== undefined && rt.projectCache === null) {
    rt.projectCache = { value: snapshot, fetchedAt: readAt };
  }
  return rt.state;
}

/** The in-memory state, loaded on first use. */
export async function currentState(ctx: EngineContext, rt: ProjectRuntime): Promise<ProjectState> {
  return rt.state ?? loadState(ctx, rt);
}

/**
 * The one durable step: seen-state and new outbox entries in a single write.
 * The in-memory copy changes only after the write succeeded, so a failed write
 * behaves exactly like a crash before it.
 *
 * The write is fenced: it lands only while this replica's lease token is still the project's current one
 * (compared atomically in Redis, one script instead of one SET). A replica that paused past its TTL and lost
 * the project to another throws {@link LeaseLostError} here, forgets the project and writes nothing.
 */
export async function commit(
  ctx: EngineContext,
  rt: ProjectRuntime,
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
  const state: ProjectState = { ...next, outbox: [...next.outbox, ...fresh] };
  const project = rt.config.linkCaption;
  const token = await commitTokenOf(ctx, rt);
  const written =
    token !== undefined &&
    (await ctx.lease.fencedSet(leaseResourceOf(rt), token, stateKeys.state(project), state, ctx.store));
  if (!written) {
    leaseLost(ctx, rt);
    ctx.logger.warn({ project }, 'lease lost before the state write: another replica polls this project now');
    throw new LeaseLostError(project);
  }
  rt.state = state;
  ctx.counters.eventsEmitted += events.length;
}

/** Appends a funding snapshot to the project's history (a store write only when appendHistory keeps it). */
export async function recordHistory(ctx: EngineContext, rt: ProjectRuntime, at: number): Promise<void> {
  const project = rt.projectCache?.value;
  if (project === undefined) return;
  if (rt.history === null) {
    rt.history =
      (await ctx.store.get(stateKeys.history(rt.config.linkCaption), historySchema).catch(() => undefined)) ??
      [];
  }
  const sold = rt.rewardsCache
    ? rewardsSold(rt.rewardsCache.value)
    : Object.fromEntries(Object.entries(rt.state?.rewards ?? {}).map(([id, f]) => [id, f.sold]));
  const next = appendHistory(
    rt.history,
    { at, funding: project.current_funding, supporters: project.supporter_count, rewardsSold: sold },
    ctx.settings.historyOptions,
  );
  if (next === null) return;
  rt.history = next;
  await ctx.store.set(stateKeys.history(rt.config.linkCaption), next);
}

/** The history for a command (an unreadable one throws: the command says so). */
export async function loadHistory(ctx: EngineContext, rt: ProjectRuntime): Promise<readonly HistoryPoint[]> {
  if (rt.history === null) {
    rt.history = (await ctx.store.get(stateKeys.history(rt.config.linkCaption), historySchema)) ?? [];
  }
  return rt.history;
}
