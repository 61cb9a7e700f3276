import {
  FeedDisabledError,
  LeaseLostError,
  ProjectNotWatchedError,
  ProjectPausedError,
} from '../domain/errors.js';
import { type FeedName, feedTable } from '../domain/feeds.js';
import { pollers } from './feeds/index.js';
import { memoryStatus, readSharedStatus } from './health/status-board.js';
import type { EngineContext } from './project/engine-context.js';
import type { ProjectRuntime } from './project/project-runtime.js';
import type { ReadModelSource } from './read-model/read-model.js';
import { request } from './schedule/feed-request.js';
import { isKeyRejection, pauseProject } from './schedule/key-pause.js';
import { feedOf } from './schedule/schedule-slice.js';
import { awaitStoredBaseline, hasBaseline } from './state/baseline.js';
import { ensureLease } from './state/project-lease.js';
import { currentState, loadHistory } from './state/project-state-store.js';

/** Reward details kept for commands; the oldest is dropped beyond this. */
const MAX_CACHED_REWARDS = 200;

/** The engine's side of the read model: its runtimes and scheduler behind {@link ReadModelSource}. */
export function readModelSource(ctx: EngineContext): ReadModelSource {
  const { clock } = ctx;

  function runtime(project: string): ProjectRuntime {
    const rt = ctx.runtimes.get(project);
    if (rt === undefined) throw new ProjectNotWatchedError(project);
    return rt;
  }

  /** While the key is rejected no command request is sent either (it would only be rejected too). */
  function assertNotPaused(rt: ProjectRuntime): void {
    if (rt.paused !== null) throw new ProjectPausedError(rt.config.linkCaption, rt.paused.reason);
  }

  function assertRefreshable(rt: ProjectRuntime, feed: FeedName): void {
    assertNotPaused(rt);
    if (feedOf(rt, feed).disabledReason !== undefined) {
      throw new FeedDisabledError(rt.config.linkCaption, feed, feedTable[feed].scope);
    }
  }

  async function refresh(project: string, feed: FeedName, isFresh: () => boolean): Promise<void> {
    const rt = runtime(project);
    const f = feedOf(rt, feed);
    assertRefreshable(rt, feed);
    if (clock.now() >= rt.leaseUntil && !(await ensureLease(ctx, rt))) throw new LeaseLostError(project);
    const polled = await rt.mutex.run(async () => {
      // Re-checked under the lock: a cycle that just finished may have refreshed it.
      if (isFresh()) return false;
      try {
        await pollers[feed](ctx, rt, 'command');
      } catch (error) {
        // A command is the first to hear the key is rejected: pause the project as a poll would.
        if (isKeyRejection(error)) pauseProject(ctx, rt, error);
        throw error;
      }
      return true;
    });
    if (polled) {
      f.lastSuccessAt = clock.now();
      // A command's read counts as the feed's poll: the next scheduled one moves back.
      f.dueAt = Math.max(f.dueAt, clock.now() + f.intervalMs);
    }
  }

  return {
    clock,
    projects: () => [...ctx.runtimes.keys()],
    isWatched: (project) => ctx.runtimes.has(project),
    title(project) {
      const rt = runtime(project);
      return rt.projectCache?.value.title ?? rt.state?.project?.snapshot.title ?? project;
    },
    state: (project) => currentState(ctx, runtime(project)),
    loadedState: (project) => runtime(project).state,
    cachedProject: (project) => runtime(project).projectCache,
    cachedRewards: (project) => runtime(project).rewardsCache,
    cachedReward: (project, rewardId) => runtime(project).rewardDetails.get(rewardId) ?? null,
    async fetchReward(project, rewardId) {
      const rt = runtime(project);
      assertNotPaused(rt);
      const value = await request(ctx, rt, 'command', () => rt.api.incentive(rewardId)).catch((error) => {
        if (isKeyRejection(error)) pauseProject(ctx, rt, error);
        throw error;
      });
      rt.rewardDetails.set(rewardId, { value, fetchedAt: clock.now() });
      if (rt.rewardDetails.size > MAX_CACHED_REWARDS) {
        const oldest = rt.rewardDetails.keys().next().value;
        if (oldest !== undefined) rt.rewardDetails.delete(oldest);
      }
    },
    assertRefreshable: (project, feed) => assertRefreshable(runtime(project), feed),
    refresh,
    async baseline(project, waitMs) {
      const rt = runtime(project);
      if (hasBaseline(rt)) return true;
      let deadline = clock.now() + waitMs;
      try {
        // The replica that polls it reads the baseline now (the fundings poll of a command).
        await refresh(project, 'fundings', () => hasBaseline(rt));
      } catch (error) {
        // Another replica polls it: its first poll stores the baseline. Anything else (key refused, feed off):
        // only what is stored already counts.
        if (!(error instanceof LeaseLostError)) deadline = clock.now();
      }
      return hasBaseline(rt) || awaitStoredBaseline(ctx, project, deadline);
    },
    // Every replica shows what the poller shared; before it shared anything, this replica's memory.
    status: async (project) =>
      (await readSharedStatus(ctx.store, project)) ?? memoryStatus(ctx, runtime(project)),
    history: (project) => loadHistory(ctx, runtime(project)),
  };
}
