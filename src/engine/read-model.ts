import type { RateBudget } from '../api/rate-budget.js';
import type { BlogPost } from '../api/schemas/blog-post.js';
import type {
  Cached,
  EngineStatus,
  FeedStatus,
  HistoryPoint,
  ProjectReadModel,
} from '../domain/read-model.js';
import type { Clock } from '../lib/clock.js';
import { DeferredError } from './credential-gate.js';
import { describeFailure } from './describe-failure.js';
import type { FeedName, ProjectRuntime } from './engine.js';
import type { ProjectState } from './project-state.js';
import type { SingleFlight } from './single-flight.js';

/** What the read model needs from the engine (kept narrow so the engine's internals stay private). */
export interface ReadModelHost {
  readonly clock: Clock;
  readonly runtimes: ReadonlyMap<string, ProjectRuntime>;
  readonly flights: SingleFlight;
  currentState(rt: ProjectRuntime): Promise<ProjectState>;
  feedOf(
    rt: ProjectRuntime,
    feed: FeedName,
  ): { lastSuccessAt: number | null; intervalMs: number; disabledReason?: string };
  budgetOf(rt: ProjectRuntime): RateBudget | undefined;
  /** Polls `feed` on behalf of a command (may use the reserve); skips the request when `isFresh()` turned true meanwhile. */
  refresh(rt: ProjectRuntime, feed: FeedName, isFresh: () => boolean): Promise<void>;
  commandRequest<T>(rt: ProjectRuntime, send: () => Promise<T>): Promise<T>;
  loadHistory(rt: ProjectRuntime): Promise<readonly HistoryPoint[]>;
}

/** A short reason fit for a channel: a category, never the error's own text (that goes to the log). */
function reasonOf(error: unknown): string {
  return error instanceof DeferredError ? error.message : describeFailure(error);
}

/**
 * Implements the core's {@link ProjectReadModel} from the engine's cache and
 * state. A value older than `maxAgeMs` is refreshed with one request shared by
 * all concurrent callers (single-flight); a failed refresh returns the old value
 * with `staleBecause`; with nothing cached the API's error is thrown.
 */
export function createReadModel(host: ReadModelHost): ProjectReadModel {
  const { clock, flights } = host;

  function runtime(linkCaption: string): ProjectRuntime {
    const rt = host.runtimes.get(linkCaption);
    if (rt === undefined) {
      throw new Error(
        `project "${linkCaption}" is not watched by this fundbot: add it to the configured projects`,
      );
    }
    return rt;
  }

  async function fresh<T>(
    flightKey: string,
    get: () => Cached<T> | null,
    maxAgeMs: number,
    refresh: (isFresh: () => boolean) => Promise<void>,
  ): Promise<Cached<T>> {
    const isFresh = () => {
      const c = get();
      return c !== null && clock.now() - c.fetchedAt <= maxAgeMs;
    };
    const before = get();
    if (before !== null && isFresh()) return before;
    try {
      await flights.run(flightKey, () => refresh(isFresh));
    } catch (error) {
      if (before !== null) return { ...before, staleBecause: reasonOf(error) };
      throw error;
    }
    const after = get();
    if (after === null) throw new Error(`no data for ${flightKey} after a refresh`);
    return after;
  }

  async function listValue<T>(
    rt: ProjectRuntime,
    feed: 'fundings' | 'wall' | 'blog',
    pick: (state: ProjectState) => readonly T[] | undefined,
  ): Promise<Cached<readonly T[]>> {
    let state = await host.currentState(rt);
    if (pick(state) === undefined) {
      const f = host.feedOf(rt, feed);
      if (f.disabledReason !== undefined) throw new Error(f.disabledReason);
      await flights.run(`${rt.config.linkCaption}/${feed}`, () =>
        host.refresh(rt, feed, () => rt.state !== null && pick(rt.state) !== undefined),
      );
      state = await host.currentState(rt);
    }
    return { value: pick(state) ?? [], fetchedAt: state.readAt[feed] ?? 0 };
  }

  return {
    watchedProjects() {
      return [...host.runtimes.values()].map((rt) => ({
        linkCaption: rt.config.linkCaption,
        title: rt.projectCache?.value.title ?? rt.state?.project?.snapshot.title ?? rt.config.linkCaption,
      }));
    },

    async project(linkCaption, maxAgeMs) {
      const rt = runtime(linkCaption);
      if (rt.projectCache === null) await host.currentState(rt);
      return fresh(
        `${linkCaption}/project`,
        () => rt.projectCache,
        maxAgeMs,
        (isFresh) => host.refresh(rt, 'project', isFresh),
      );
    },

    async rewards(linkCaption, maxAgeMs) {
      const rt = runtime(linkCaption);
      return fresh(
        `${linkCaption}/incentives`,
        () => rt.rewardsCache,
        maxAgeMs,
        (isFresh) => host.refresh(rt, 'incentives', isFresh),
      );
    },

    async reward(linkCaption, rewardId, maxAgeMs) {
      const rt = runtime(linkCaption);
      return fresh(
        `${linkCaption}/incentive/${rewardId}`,
        () => rt.rewardDetails.get(rewardId) ?? null,
        maxAgeMs,
        async (isFresh) => {
          if (isFresh()) return;
          const value = await host.commandRequest(rt, () => rt.api.incentive(rewardId));
          rt.rewardDetails.set(rewardId, { value, fetchedAt: clock.now() });
          if (rt.rewardDetails.size > 200) {
            const oldest = rt.rewardDetails.keys().next().value;
            if (oldest !== undefined) rt.rewardDetails.delete(oldest);
          }
        },
      );
    },

    async recentSupporters(linkCaption, limit) {
      const rt = runtime(linkCaption);
      const list = await listValue(rt, 'fundings', (s) => s.lists.fundings?.entries);
      return { ...list, value: list.value.slice(0, Math.max(0, limit)) };
    },

    async recentWallPosts(linkCaption, limit) {
      const rt = runtime(linkCaption);
      const list = await listValue(rt, 'wall', (s) => s.lists.wall?.entries);
      return { ...list, value: list.value.slice(0, Math.max(0, limit)) };
    },

    async recentBlogPosts(linkCaption, limit) {
      const rt = runtime(linkCaption);
      const list = await listValue(rt, 'blog', (s) => {
        if (s.lists.blogText === undefined && s.lists.blogStory === undefined) return undefined;
        const byId = new Map<number, BlogPost>();
        for (const post of [...(s.lists.blogText?.entries ?? []), ...(s.lists.blogStory?.entries ?? [])]) {
          byId.set(post.id, post);
        }
        return [...byId.values()].sort((a, b) => b.release_timestamp - a.release_timestamp || b.id - a.id);
      });
      return { ...list, value: list.value.slice(0, Math.max(0, limit)) };
    },

    async history(linkCaption, sinceMs) {
      const rt = runtime(linkCaption);
      const points = await host.loadHistory(rt);
      return points.filter((p) => p.at >= sinceMs);
    },

    async status(linkCaption): Promise<EngineStatus> {
      const rt = runtime(linkCaption);
      const feeds: FeedStatus[] = (['project', 'incentives', 'fundings', 'wall', 'blog'] as const).map(
        (feed) => {
          const f = host.feedOf(rt, feed);
          return {
            feed,
            lastSuccessAt: f.lastSuccessAt,
            intervalMs: Math.round(f.intervalMs),
            ...(f.disabledReason !== undefined ? { disabledReason: f.disabledReason } : {}),
          };
        },
      );
      const budget = host.budgetOf(rt);
      return {
        feeds,
        budget: {
          dayLimit: budget?.dayLimit ?? null,
          dayRemaining: budget?.dayRemaining ?? null,
          dayResetAt: budget?.dayResetAt ?? null,
          minuteRemaining: budget?.minuteRemaining ?? null,
        },
        recentErrors: [...rt.recentErrors],
      };
    },
  };
}
