import { isEngineNote } from '../../domain/engine-notes.js';
import type { FeedName } from '../../domain/feeds.js';
import type { EngineStatus, FeedStatus } from '../../domain/read-model.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { feedOf } from '../schedule/schedule-slice.js';
import { bookkeepingRefreshMs } from '../state/project-state-store.js';
import { readStoredStatus, type StoredStatus, writeStoredStatus } from './status-board-store.js';

/**
 * A project's status as every replica shows it (issue 30: App Home, Discord /status, /fundbot status and
 * /healthz said "not polled yet" on every replica but the one polling). The replica that polls the project
 * writes it to the store after a run, and only when something a reader shows changed: the title or funding, a feed
 * polled for the first time, switched off or on, failing or recovered, the project paused or resumed, a new
 * note, a new poller. The times of the last polls are not a change: a reader takes the later of the status's and the
 * state head's (`readAt`), which the engine writes at most {@link bookkeepingRefreshMs} apart while polls
 * succeed (project-state-store.ts), so "polled within 15 minutes" is told from "stopped" at no extra write.
 *
 * Key: `engine/<project>/status` (under the project's prefix: a disconnect deletes it with the state).
 * Cost: about 0.5 KB per change, none on a quiet project; a reader two reads (the status and the head).
 */

/** The newest notes kept in the shared status (`/status` shows a few). */
const NOTES_SHARED = 5;

/** The order `/status` lists the feeds in. */
const statusOrder: readonly FeedName[] = ['project', 'incentives', 'fundings', 'wall', 'blog'];

/** The project's status as this replica's memory has it (the poller's truth, and what it publishes). */
export function memoryStatus(ctx: EngineContext, rt: ProjectRuntime): EngineStatus {
  const budget = ctx.api.budget(rt.config.key);
  const read = rt.projectCache;
  return {
    ...(read !== null
      ? {
          project: {
            title: read.value.title,
            current: read.value.current_funding,
            goal: read.value.funding_threshold,
            currency: read.value.currency,
            readAt: read.fetchedAt,
          },
        }
      : {}),
    feeds: statusOrder.map((feed): FeedStatus => {
      const f = feedOf(rt, feed);
      return {
        feed,
        lastSuccessAt: f.lastSuccessAt,
        intervalMs: Math.round(f.intervalMs),
        ...(f.disabledReason !== undefined ? { disabledReason: f.disabledReason } : {}),
      };
    }),
    budget: {
      dayLimit: budget?.dayLimit ?? null,
      dayRemaining: budget?.dayRemaining ?? null,
      dayResetAt: budget?.dayResetAt ?? null,
      minuteRemaining: budget?.minuteRemaining ?? null,
    },
    recentErrors: [...rt.recentErrors],
    paused: rt.paused === null ? null : { reason: rt.paused.reason, since: rt.paused.since },
  };
}

/** What changes a reader's picture (not the times of the polls themselves, nor the budget). */
function signatureOf(ctx: EngineContext, rt: ProjectRuntime): string {
  const feeds = statusOrder.map((feed) => {
    const f = feedOf(rt, feed);
    return [feed, f.lastSuccessAt !== null, f.failures > 0, f.disabledReason?.code ?? ''];
  });
  const project = rt.projectCache?.value;
  return JSON.stringify([
    ctx.replicaId,
    project === undefined
      ? null
      : [project.title, project.current_funding, project.funding_threshold, project.currency],
    feeds,
    rt.paused?.reason.code ?? '',
    rt.recentErrors.at(-1)?.at ?? 0,
  ]);
}

/** Per runtime: the signature of what it last wrote. */
const published = new WeakMap<ProjectRuntime, string>();

/**
 * Writes the project's status when a reader would see something new; nothing otherwise. Only while this
 * replica holds the project. A failed write is logged, never thrown: the poll it follows succeeded, and the
 * next run tries again.
 */
export async function publishStatus(ctx: EngineContext, rt: ProjectRuntime): Promise<void> {
  const now = ctx.clock.now();
  if (now >= rt.leaseUntil) return;
  const signature = signatureOf(ctx, rt);
  if (published.get(rt) === signature) return;
  const status = memoryStatus(ctx, rt);
  const stored: StoredStatus = {
    by: ctx.replicaId,
    at: now,
    feeds: status.feeds.map((f) => ({
      feed: f.feed,
      last: f.lastSuccessAt,
      every: f.intervalMs,
      ...(f.disabledReason !== undefined ? { off: f.disabledReason } : {}),
    })),
    budget: status.budget,
    notes: status.recentErrors.slice(-NOTES_SHARED),
    paused: status.paused,
    ...(status.project !== undefined ? { project: status.project } : {}),
  };
  try {
    await writeStoredStatus(ctx.store, rt.config.linkCaption, stored);
    published.set(rt, signature);
  } catch (error) {
    ctx.logger.warn(
      { project: rt.config.linkCaption, err: error instanceof Error ? error.message : String(error) },
      'the shared project status could not be written: the next run tries again',
    );
  }
}

/**
 * The status the polling replica last wrote, its poll times brought forward to the state head's; undefined
 * when none was written (or it does not parse). Two reads.
 */
export async function readSharedStatus(
  store: KeyValueStore,
  linkCaption: string,
): Promise<EngineStatus | undefined> {
  const found = await readStoredStatus(store, linkCaption);
  if (found === undefined) return undefined;
  const { stored, readAt } = found;
  return {
    feeds: stored.feeds.map((f) => ({
      feed: f.feed,
      lastSuccessAt: f.last === null ? null : Math.max(f.last, readAt[f.feed] ?? 0),
      intervalMs: f.every,
      ...(f.off !== undefined ? { disabledReason: f.off } : {}),
    })),
    budget: stored.budget,
    recentErrors: stored.notes.flatMap((n) => (isEngineNote(n.note) ? [{ at: n.at, note: n.note }] : [])),
    paused: stored.paused,
    reportedEveryMs: bookkeepingRefreshMs,
    ...(stored.project !== undefined ? { project: stored.project } : {}),
  };
}
