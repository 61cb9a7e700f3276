import type { BlogPost, Incentive, IncentiveDetail, Project } from '../../api/index.js';
import { type EngineNote, note } from '../../domain/engine-notes.js';
import {
  FeedDisabledError,
  LeaseLostError,
  ProjectNotWatchedError,
  ProjectPausedError,
} from '../../domain/errors.js';
import type { FeedName } from '../../domain/feeds.js';
import type { Cached, EngineStatus, HistoryPoint, ProjectReadModel } from '../../domain/read-model.js';
import type { Clock } from '../../lib/clock.js';
import { SingleFlight } from '../context/single-flight.js';
import { DeferredError } from '../schedule/credential-gate.js';
import type { ProjectState } from '../state/project-state.js';
import { classifyFailure } from './describe-failure.js';

/**
 * The few operations the read model needs, per project name. The engine
 * implements it (read-model-source.ts); the read model knows nothing of the
 * engine's runtimes, scheduler or store.
 */
export interface ReadModelSource {
  readonly clock: Clock;
  /** The watched projects, in configuration order. */
  projects(): readonly string[];
  isWatched(project: string): boolean;
  /** The project's title when known, else its link caption. */
  title(project: string): string;
  /** The stored state (loads it on first use; also seeds the project cache from it). */
  state(project: string): Promise<ProjectState>;
  /** The in-memory state, without loading (null until loaded). */
  loadedState(project: string): ProjectState | null;
  cachedProject(project: string): Cached<Project> | null;
  cachedRewards(project: string): Cached<readonly Incentive[]> | null;
  cachedReward(project: string, rewardId: number): Cached<IncentiveDetail> | null;
  /** Fetches one reward on behalf of a command (may use the reserve) and caches it. */
  fetchReward(project: string, rewardId: number): Promise<void>;
  /**
   * Polls `feed` on behalf of a command (may use the reserve); skips the request when
   * `isFresh()` turned true meanwhile. Throws the engine's typed errors (feed disabled,
   * lease lost, project paused) or the API's.
   */
  refresh(project: string, feed: FeedName, isFresh: () => boolean): Promise<void>;
  /** Throws when `feed` cannot be refreshed at all (disabled feed, paused project), without a request. */
  assertRefreshable(project: string, feed: FeedName): void;
  /** The project's status as every replica shows it: the poller's shared status, else this replica's memory. */
  status(project: string): Promise<EngineStatus>;
  /** See {@link ProjectReadModel.baseline}. */
  baseline(project: string, waitMs: number): Promise<boolean>;
  history(project: string): Promise<readonly HistoryPoint[]>;
}

/** Why a refresh failed, as a note for channels: a code, never the error's own text (that goes to the log). */
function reasonOf(error: unknown): EngineNote {
  if (error instanceof DeferredError) return note('budget-wait', { until: error.until });
  if (error instanceof FeedDisabledError)
    return note('scope-missing', { feed: error.feed, scope: error.scope });
  if (error instanceof ProjectPausedError) return error.reason;
  if (error instanceof LeaseLostError) return note('lease-elsewhere', {});
  return note('read-failed', classifyFailure(error));
}

/**
 * Implements the core's {@link ProjectReadModel} from the engine's cache and
 * state. A value older than `maxAgeMs` is refreshed with one request shared by
 * all concurrent callers (single-flight); a failed refresh returns the old value
 * with `staleBecause`; with nothing cached the error is thrown.
 */
export function createReadModel(source: ReadModelSource): ProjectReadModel {
  const { clock } = source;
  const flights = new SingleFlight();

  function watched(project: string): string {
    if (!source.isWatched(project)) throw new ProjectNotWatchedError(project);
    return project;
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
    project: string,
    feed: 'fundings' | 'wall' | 'blog',
    pick: (state: ProjectState) => readonly T[] | undefined,
  ): Promise<Cached<readonly T[]>> {
    let state = await source.state(project);
    if (pick(state) === undefined) {
      source.assertRefreshable(project, feed);
      await flights.run(`${project}/${feed}`, () =>
        source.refresh(project, feed, () => {
          const loaded = source.loadedState(project);
          return loaded !== null && pick(loaded) !== undefined;
        }),
      );
      state = await source.state(project);
    }
    return { value: pick(state) ?? [], fetchedAt: state.readAt[feed] ?? 0 };
  }

  return {
    watchedProjects() {
      return source.projects().map((linkCaption) => ({ linkCaption, title: source.title(linkCaption) }));
    },

    async project(linkCaption, maxAgeMs) {
      const project = watched(linkCaption);
      if (source.cachedProject(project) === null) await source.state(project);
      return fresh(
        `${project}/project`,
        () => source.cachedProject(project),
        maxAgeMs,
        (isFresh) => source.refresh(project, 'project', isFresh),
      );
    },

    async rewards(linkCaption, maxAgeMs) {
      const project = watched(linkCaption);
      return fresh(
        `${project}/incentives`,
        () => source.cachedRewards(project),
        maxAgeMs,
        (isFresh) => source.refresh(project, 'incentives', isFresh),
      );
    },

    async reward(linkCaption, rewardId, maxAgeMs) {
      const project = watched(linkCaption);
      return fresh(
        `${project}/incentive/${rewardId}`,
        () => source.cachedReward(project, rewardId),
        maxAgeMs,
        async (isFresh) => {
          if (isFresh()) return;
          await source.fetchReward(project, rewardId);
        },
      );
    },

    async recentSupporters(linkCaption, limit) {
      const list = await listValue(watched(linkCaption), 'fundings', (s) => s.lists.fundings?.entries);
      return { ...list, value: list.value.slice(0, Math.max(0, limit)) };
    },

    async recentWallPosts(linkCaption, limit) {
      const list = await listValue(watched(linkCaption), 'wall', (s) => s.lists.wall?.entries);
      return { ...list, value: list.value.slice(0, Math.max(0, limit)) };
    },

    async recentBlogPosts(linkCaption, limit) {
      const list = await listValue(watched(linkCaption), 'blog', (s) => {
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
      const points = await source.history(watched(linkCaption));
      return points.filter((p) => p.at >= sinceMs);
    },

    baseline: async (linkCaption, waitMs) => source.baseline(watched(linkCaption), waitMs),

    status: async (linkCaption) => source.status(watched(linkCaption)),
  };
}
