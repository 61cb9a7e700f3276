import type {
  BlogPost,
  Funding,
  Incentive,
  IncentiveDetail,
  Project,
  WallPost,
} from '../../src/api/schemas/index.js';
import type {
  Cached,
  EngineStatus,
  HistoryPoint,
  ProjectReadModel,
  WatchedProject,
} from '../../src/core/ports.js';
import type { EngineNote } from '../../src/domain/engine-notes.js';
import type { Clock } from '../../src/lib/clock.js';
import { detailOf } from './builders.js';

/**
 * An error shaped like the API client's typed errors (`status`, `code`), for a
 * read model that has nothing cached. Its message carries a fake key so tests
 * can prove no reply ever repeats an error's text.
 */
export class FakeApiError extends Error {
  override readonly name = 'FakeApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message = `HTTP ${status} ${code} for key svc_proj_SECRETSECRETSECRET at /project/x`,
  ) {
    super(message);
  }
}

/**
 * The error the engine's read model raises for a resource the project's key has no scope for
 * (named like the API client's `ForbiddenError`), for tests that switch a section off with {@link FakeReadModel.failWith}.
 */
export function missingScope(resource: string): Error {
  const error = new Error(`the key lacks the ${resource} scope`);
  error.name = 'ForbiddenError';
  return error;
}

/** Everything the fake knows about one project. Omitted lists are empty. */
export interface FakeProjectFixture {
  readonly project: Project;
  readonly rewards?: readonly Incentive[];
  /** Single-reward responses; a reward of `rewards` without one answers with no variations. */
  readonly rewardDetails?: readonly IncentiveDetail[];
  readonly supporters?: readonly Funding[];
  readonly blogPosts?: readonly BlogPost[];
  readonly wallPosts?: readonly WallPost[];
  readonly history?: readonly HistoryPoint[];
  readonly status?: EngineStatus;
  /** Whether the supporters' baseline is stored (/subscribe waits for it); default true. */
  readonly baseline?: boolean;
}

export type FakeResource =
  | 'project'
  | 'rewards'
  | 'reward'
  | 'supporters'
  | 'blog'
  | 'wall'
  | 'history'
  | 'status'
  | 'baseline';

export interface FakeReadModelCall {
  readonly method: Exclude<keyof ProjectReadModel, 'watchedProjects'>;
  readonly project: string;
  readonly args: readonly unknown[];
}

const emptyStatus: EngineStatus = {
  feeds: [],
  budget: { dayLimit: null, dayRemaining: null, dayResetAt: null, minuteRemaining: null },
  recentErrors: [],
  paused: null,
};

/**
 * The one fake {@link ProjectReadModel} of the test suite (core, commands and digest), answering from fixtures
 * like the engine would from its cache. It records every call (a fake, not a mock), serves the post lists newest
 * first as the port promises, can serve values as stale (`setFreshness`) and can fail a resource the way the
 * engine does when nothing is cached or a scope is missing (`failWith`).
 */
export class FakeReadModel implements ProjectReadModel {
  readonly calls: FakeReadModelCall[] = [];
  readonly #clock: Pick<Clock, 'now'>;
  readonly #projects = new Map<string, FakeProjectFixture>();
  readonly #freshness = new Map<string, { fetchedAt?: number; staleBecause?: EngineNote }>();
  readonly #failures = new Map<string, unknown>();
  #watched: readonly WatchedProject[] | undefined;

  constructor(options: {
    clock: Pick<Clock, 'now'>;
    projects?: readonly FakeProjectFixture[];
    watched?: readonly WatchedProject[];
  }) {
    this.#clock = options.clock;
    for (const fixture of options.projects ?? []) this.addProject(fixture);
    this.#watched = options.watched;
  }

  addProject(fixture: FakeProjectFixture): this {
    this.#projects.set(fixture.project.link_caption, fixture);
    return this;
  }

  /** Replaces parts of a project's fixture (e.g. a new funding figure). */
  update(linkCaption: string, patch: Partial<FakeProjectFixture>): this {
    const current = this.#projects.get(linkCaption);
    if (!current) throw new Error(`FakeReadModel: no project ${linkCaption}; addProject first`);
    this.#projects.set(linkCaption, { ...current, ...patch });
    return this;
  }

  /** Overrides the watched list (default: every fixture's link caption and title). */
  setWatched(watched: readonly WatchedProject[]): this {
    this.#watched = watched;
    return this;
  }

  /** Serves a resource with this age and stale reason (default: fetched just now, fresh). */
  setFreshness(
    linkCaption: string,
    resource: FakeResource,
    value: { fetchedAt?: number; staleBecause?: EngineNote },
  ): this {
    this.#freshness.set(`${linkCaption}/${resource}`, value);
    return this;
  }

  /** Makes a resource throw `error` (nothing cached) until {@link clearFailure}. */
  failWith(linkCaption: string, resource: FakeResource, error: unknown): this {
    this.#failures.set(`${linkCaption}/${resource}`, error);
    return this;
  }

  clearFailure(linkCaption: string, resource: FakeResource): this {
    this.#failures.delete(`${linkCaption}/${resource}`);
    return this;
  }

  /** The calls of one method, for assertions. */
  callsOf(method: FakeReadModelCall['method']): FakeReadModelCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  watchedProjects(): readonly WatchedProject[] {
    return (
      this.#watched ??
      [...this.#projects.values()].map((f) => ({
        linkCaption: f.project.link_caption,
        title: f.project.title,
      }))
    );
  }

  async project(linkCaption: string, maxAgeMs: number): Promise<Cached<Project>> {
    const fixture = this.#enter('project', linkCaption, [maxAgeMs], 'project');
    return this.#cached(linkCaption, 'project', fixture.project);
  }

  async rewards(linkCaption: string, maxAgeMs: number): Promise<Cached<readonly Incentive[]>> {
    const fixture = this.#enter('rewards', linkCaption, [maxAgeMs], 'rewards');
    return this.#cached(linkCaption, 'rewards', fixture.rewards ?? []);
  }

  async reward(linkCaption: string, rewardId: number, maxAgeMs: number): Promise<Cached<IncentiveDetail>> {
    const fixture = this.#enter('reward', linkCaption, [rewardId, maxAgeMs], 'reward');
    const detail =
      fixture.rewardDetails?.find((r) => r.id === rewardId) ??
      ((r) => (r ? detailOf(r) : undefined))(fixture.rewards?.find((r) => r.id === rewardId));
    if (!detail) throw new FakeApiError(404, 'not_found');
    return this.#cached(linkCaption, 'reward', detail);
  }

  async recentSupporters(linkCaption: string, limit: number): Promise<Cached<readonly Funding[]>> {
    const fixture = this.#enter('recentSupporters', linkCaption, [limit], 'supporters');
    return this.#cached(linkCaption, 'supporters', (fixture.supporters ?? []).slice(0, limit));
  }

  async recentBlogPosts(linkCaption: string, limit: number): Promise<Cached<readonly BlogPost[]>> {
    const fixture = this.#enter('recentBlogPosts', linkCaption, [limit], 'blog');
    const newestFirst = [...(fixture.blogPosts ?? [])].sort(
      (a, b) => b.release_timestamp - a.release_timestamp,
    );
    return this.#cached(linkCaption, 'blog', newestFirst.slice(0, limit));
  }

  async recentWallPosts(linkCaption: string, limit: number): Promise<Cached<readonly WallPost[]>> {
    const fixture = this.#enter('recentWallPosts', linkCaption, [limit], 'wall');
    const newestFirst = [...(fixture.wallPosts ?? [])].sort(
      (a, b) => b.created_timestamp - a.created_timestamp,
    );
    return this.#cached(linkCaption, 'wall', newestFirst.slice(0, limit));
  }

  async history(linkCaption: string, sinceMs: number): Promise<readonly HistoryPoint[]> {
    const fixture = this.#enter('history', linkCaption, [sinceMs], 'history');
    return (fixture.history ?? []).filter((p) => p.at >= sinceMs);
  }

  async status(linkCaption: string): Promise<EngineStatus> {
    const fixture = this.#enter('status', linkCaption, [], 'status');
    return fixture.status ?? emptyStatus;
  }

  /** The fixture's `baseline` (default true: the engine read it); fails like any resource (`failWith`). */
  async baseline(linkCaption: string, waitMs: number): Promise<boolean> {
    const fixture = this.#enter('baseline', linkCaption, [waitMs], 'baseline');
    return fixture.baseline ?? true;
  }

  #enter(
    method: FakeReadModelCall['method'],
    linkCaption: string,
    args: readonly unknown[],
    resource: FakeResource,
  ): FakeProjectFixture {
    this.calls.push({ method, project: linkCaption, args });
    const failure = this.#failures.get(`${linkCaption}/${resource}`);
    if (failure !== undefined) throw failure;
    const fixture = this.#projects.get(linkCaption);
    // The API answers an unknown project like an invisible one.
    if (!fixture) throw new FakeApiError(403, 'project_access_denied');
    return fixture;
  }

  #cached<T>(linkCaption: string, resource: FakeResource, value: T): Cached<T> {
    const freshness = this.#freshness.get(`${linkCaption}/${resource}`);
    return {
      value,
      fetchedAt: freshness?.fetchedAt ?? this.#clock.now(),
      ...(freshness?.staleBecause !== undefined ? { staleBecause: freshness.staleBecause } : {}),
    };
  }
}
