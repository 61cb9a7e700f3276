import type { ApiClient, ProjectApi } from '../api/api-client.js';
import type { ProjectKey } from '../api/credentials.js';
import { ForbiddenError, RateLimitError } from '../api/errors.js';
import type { BlogPost, BlogType } from '../api/schemas/blog-post.js';
import type { Funding } from '../api/schemas/funding.js';
import type { Incentive, IncentiveDetail } from '../api/schemas/incentive.js';
import type { Project } from '../api/schemas/project.js';
import type { WallPost } from '../api/schemas/wall-post.js';
import { blogPostKey, fundingKey, wallPostKey } from '../api/stable-keys.js';
import type { FundbotEvent } from '../domain/events.js';
import { crossedMilestones, defaultMilestones } from '../domain/milestones.js';
import type { Cached, FeedStatus, HistoryPoint, ProjectReadModel } from '../domain/read-model.js';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import { type KeyValueStore, StoredValueError } from '../lib/store.js';
import { type FeedDemand, planIntervals } from './budget-plan.js';
import { assumedBudget, CredentialGate, DeferredError } from './credential-gate.js';
import { describeFailure } from './describe-failure.js';
import {
  blogEvent,
  milestoneEvents,
  rewardEvents,
  rewardsSold,
  statusEvents,
  supporterEvents,
  wallEvents,
  watchingEvent,
} from './feed-events.js';
import { appendHistory, defaultHistoryOptions, type HistoryOptions, historySchema } from './history.js';
import { type Lease, memoryLease } from './lease.js';
import type { ListItemCodec } from './list-order.js';
import {
  defaultListReadOptions,
  type FreshEntry,
  type ListReadOptions,
  type ListReadResult,
  readList,
} from './list-reader.js';
import type { ListState } from './list-state.js';
import {
  deliveryBackoffMs,
  emptyProjectState,
  type OutboxEntry,
  type ProjectState,
  projectStateSchema,
  stateKeys,
} from './project-state.js';
import { createReadModel } from './read-model.js';
import { diffRewards } from './reward-diff.js';
import { Mutex, SingleFlight } from './single-flight.js';

/** The feeds of a project, as the status reports them. */
export type FeedName = FeedStatus['feed'];
/** Whom a request is counted for: a feed's poll, or a command (which may use the reserve). */
type RequestTag = FeedName | 'command';
const feedNames: readonly FeedName[] = ['fundings', 'project', 'wall', 'blog', 'incentives'];

/** `{info,warn,error}(obj, msg)`: pino's shape, so the composition root can pass a pino logger. */
export interface EngineLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EngineProject {
  readonly linkCaption: string;
  readonly key: ProjectKey;
  /** Percentages of the goal to announce. Default 25/50/75/100/150/200. */
  readonly milestones?: readonly number[];
}

export interface EngineOptions {
  /** Share of the day and minute budget left for slash commands. Default 0.15. */
  readonly reservePct?: number;
  /** More new entries than this in one poll become one coalesced notice. Default 10. */
  readonly burstThreshold?: number;
  /** Flood guard: share of new-looking entries not explained by list growth. Default 0.5. */
  readonly floodRatio?: number;
  /** Flood guard: fewer new-looking entries never trip it. Default 50. */
  readonly floodMin?: number;
  /** Recent entries kept per list. Default 500. */
  readonly windowSize?: number;
  /** Known entries re-read at a list's new end per poll. Default 20. */
  readonly overlap?: number;
  /** Wanted interval per feed when the budget allows (ms). */
  readonly targetIntervalsMs?: Partial<Record<FeedName, number>>;
  /** Re-read each list's window region at least this often. Default one day. */
  readonly healEveryMs?: number;
  /** When new supporters arrive and the project is older than this, it is re-read in the same cycle. Default 45 s. */
  readonly projectRefreshOnChangeMs?: number;
  readonly leaseTtlMs?: number;
  /** Post one "now watching" summary on the very first run. Default true. */
  readonly announceWatching?: boolean;
  readonly history?: Partial<HistoryOptions>;
}

export interface CreateEngineOptions {
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger?: EngineLogger;
  readonly projects: readonly EngineProject[];
  /**
   * Delivers one event, in order per project. Guarantee: every event is passed
   * at least once; a repeat (after a crash between `deliver` resolving and the
   * outbox write, or after `deliver` threw) carries the SAME `event.id`, and no
   * entry ever gets two different events. Use `event.id` as the idempotency key.
   * A throw keeps the event (and those after it) for a retry with backoff.
   */
  readonly deliver: (event: FundbotEvent) => Promise<void>;
  readonly options?: EngineOptions;
  /** Who may poll which project. Default: an in-memory lease (one process). */
  readonly lease?: Lease;
  /** This replica's lease holder name. Default 'replica-1'. */
  readonly replicaId?: string;
  /** Told about every finished poll of a feed: for metrics and health (must not throw). */
  readonly onPoll?: (poll: PollOutcome) => void;
}

/** One finished poll of one feed; `skipped` = deferred by a Retry-After wait or a lost lease. */
export interface PollOutcome {
  readonly project: string;
  readonly feed: FeedName;
  readonly result: 'ok' | 'error' | 'rate_limited' | 'forbidden' | 'skipped';
  readonly durationMs: number;
}

export interface EngineMetrics {
  readonly requests: Readonly<Record<FeedName | 'command', number>>;
  readonly polls: number;
  readonly eventsEmitted: number;
  readonly eventsDelivered: number;
  readonly deliveryFailures: number;
  readonly floodsHeld: number;
  readonly heals: number;
}

/** The event engine: poller, scheduler, outbox and read model. See src/engine/index.ts. */
export interface Engine {
  /** Starts the real-time loop (clock.sleep between cycles). Resolves once started. */
  start(): Promise<void>;
  /** Stops the loop; resolves after the cycle in flight has finished. Releases the leases. */
  stop(): Promise<void>;
  /** Epoch ms of the earliest due poll, delivery retry or lease renewal. */
  nextDueAt(): number;
  /** Runs every poll due at clock.now(), then delivers what the outbox holds. */
  runDue(): Promise<void>;
  /** Delivers the outbox of every project (in order per project) until empty or a delivery fails. */
  drainOutbox(): Promise<void>;
  readonly readModel: ProjectReadModel;
  metrics(): EngineMetrics;
}

interface FeedRuntime {
  dueAt: number;
  intervalMs: number;
  lastSuccessAt: number | null;
  failures: number;
  disabledReason?: string;
  /** Moving average of requests per poll. */
  requestsPerPoll: number;
}

/** Per-project runtime: in-memory copy of the stored state (authoritative while holding the lease). */
export interface ProjectRuntime {
  readonly config: EngineProject;
  readonly api: ProjectApi;
  readonly gate: CredentialGate;
  readonly mutex: Mutex;
  readonly feeds: Map<FeedName, FeedRuntime>;
  state: ProjectState | null;
  history: HistoryPoint[] | null;
  projectCache: Cached<Project> | null;
  rewardsCache: Cached<readonly Incentive[]> | null;
  readonly rewardDetails: Map<number, Cached<IncentiveDetail>>;
  readonly recentErrors: { at: number; message: string }[];
  leaseUntil: number;
  leaseRetryAt: number;
}

const fundingCodec: ListItemCodec<Funding> = {
  key: fundingKey,
  ts: (f) => f.support_timestamp,
  tieId: () => undefined,
};
const wallCodec: ListItemCodec<WallPost> = {
  key: wallPostKey,
  ts: (w) => w.created_timestamp,
  tieId: (w) => w.id,
};
const blogCodec: ListItemCodec<BlogPost> = {
  key: blogPostKey,
  ts: (b) => b.release_timestamp,
  tieId: (b) => b.id,
};

const scopeOf: Record<FeedName, string> = {
  fundings: 'fundings:read',
  wall: 'wall:read',
  blog: 'blog:read',
  project: 'project:read',
  incentives: 'incentives:read',
};
const noticesOf: Record<FeedName, string> = {
  fundings: 'supporter',
  wall: 'wall',
  blog: 'blog',
  project: 'milestone and status',
  incentives: 'reward',
};
const defaultTargets: Record<FeedName, number> = {
  fundings: 20_000,
  wall: 60_000,
  blog: 5 * 60_000,
  project: 90_000,
  incentives: 5 * 60_000,
};
const weights: Record<FeedName, number> = { fundings: 8, wall: 2, blog: 1, project: 2, incentives: 1 };
/** Trimmed text of stored posts: the window is for dedup and "recent" commands, not an archive. */
const STORED_TEXT_MAX = 1000;

/** Creates the event engine. Nothing happens until `start()` or `runDue()`. */
export function createEngine(deps: CreateEngineOptions): Engine {
  const { api, store, clock, random, deliver } = deps;
  const logger = deps.logger ?? { info() {}, warn() {}, error() {} };
  const o = deps.options ?? {};
  const reservePct = o.reservePct ?? 0.15;
  const burstThreshold = o.burstThreshold ?? 10;
  const healEveryMs = o.healEveryMs ?? 24 * 60 * 60_000;
  const projectRefreshOnChangeMs = o.projectRefreshOnChangeMs ?? 45_000;
  const leaseTtlMs = o.leaseTtlMs ?? 60_000;
  const announceWatching = o.announceWatching ?? true;
  const historyOptions: HistoryOptions = { ...defaultHistoryOptions, ...o.history };
  const targets: Record<FeedName, number> = { ...defaultTargets, ...o.targetIntervalsMs };
  const listOptions: ListReadOptions = {
    ...defaultListReadOptions,
    ...(o.floodRatio !== undefined ? { floodRatio: o.floodRatio } : {}),
    ...(o.floodMin !== undefined ? { floodMin: o.floodMin } : {}),
    ...(o.windowSize !== undefined ? { windowSize: o.windowSize } : {}),
    ...(o.overlap !== undefined ? { overlap: o.overlap } : {}),
  };
  const lease = deps.lease ?? memoryLease(clock);
  const replicaId = deps.replicaId ?? 'replica-1';
  const gates = new Map<string, CredentialGate>();
  const flights = new SingleFlight();
  const counters = {
    requests: { fundings: 0, project: 0, wall: 0, blog: 0, incentives: 0, command: 0 } as Record<
      FeedName | 'command',
      number
    >,
    polls: 0,
    eventsEmitted: 0,
    eventsDelivered: 0,
    deliveryFailures: 0,
    floodsHeld: 0,
    heals: 0,
  };

  const runtimes = new Map<string, ProjectRuntime>();
  const start0 = clock.now();
  for (const config of deps.projects) {
    if (runtimes.has(config.linkCaption))
      throw new Error(`project "${config.linkCaption}" is configured twice`);
    const credential = config.key.fingerprint;
    let gate = gates.get(credential);
    if (gate === undefined) {
      gate = new CredentialGate(reservePct);
      gates.set(credential, gate);
    }
    const feeds = new Map<FeedName, FeedRuntime>();
    for (const feed of feedNames) {
      feeds.set(feed, {
        dueAt: start0,
        intervalMs: targets[feed],
        lastSuccessAt: null,
        failures: 0,
        requestsPerPoll: 1,
      });
    }
    runtimes.set(config.linkCaption, {
      config,
      api: api.project(config.linkCaption, config.key),
      gate,
      mutex: new Mutex(),
      feeds,
      state: null,
      history: null,
      projectCache: null,
      rewardsCache: null,
      rewardDetails: new Map(),
      recentErrors: [],
      leaseUntil: 0,
      leaseRetryAt: start0,
    });
  }

  function noteError(rt: ProjectRuntime, message: string): void {
    rt.recentErrors.push({ at: clock.now(), message });
    if (rt.recentErrors.length > 20) rt.recentErrors.splice(0, rt.recentErrors.length - 20);
  }

  function feedOf(rt: ProjectRuntime, feed: FeedName): FeedRuntime {
    const f = rt.feeds.get(feed);
    if (f === undefined) throw new Error(`unknown feed ${feed}`);
    return f;
  }

  /** A request of `feed` (or a command): gate first, count, then send. */
  async function request<T>(rt: ProjectRuntime, feed: RequestTag, send: () => Promise<T>): Promise<T> {
    rt.gate.check(clock.now(), api.budget(rt.config.key), feed === 'command' ? 'command' : 'poll');
    rt.gate.sent();
    counters.requests[feed] += 1;
    try {
      return await send();
    } catch (error) {
      if (error instanceof RateLimitError) {
        const wait = error.retryAfterMs ?? 60_000;
        rt.gate.block(clock.now() + wait, `rate limited: the API asked to wait ${Math.ceil(wait / 1000)} s`);
      }
      throw error;
    }
  }

  async function loadState(rt: ProjectRuntime): Promise<ProjectState> {
    try {
      rt.state =
        (await store.get(stateKeys.state(rt.config.linkCaption), projectStateSchema)) ?? emptyProjectState();
    } catch (error) {
      if (!(error instanceof StoredValueError)) throw error;
      // A corrupt or foreign state must not turn into hundreds of notices: start again from a baseline.
      logger.warn(
        { project: rt.config.linkCaption, err: error.message },
        'stored engine state unreadable: re-baselining',
      );
      noteError(rt, `stored state unreadable, re-baselined: ${error.issues}`);
      rt.state = emptyProjectState();
    }
    const snapshot = rt.state.project?.snapshot;
    const readAt = rt.state.readAt['project'];
    if (snapshot !== undefined && readAt !== undefined && rt.projectCache === null) {
      rt.projectCache = { value: snapshot, fetchedAt: readAt };
    }
    return rt.state;
  }

  async function currentState(rt: ProjectRuntime): Promise<ProjectState> {
    return rt.state ?? loadState(rt);
  }

  /**
   * The one durable step: seen-state and new outbox entries in a single write.
   * The in-memory copy changes only after the write succeeded, so a failed write
   * behaves exactly like a crash before it.
   */
  async function commit(
    rt: ProjectRuntime,
    next: ProjectState,
    events: readonly FundbotEvent[],
  ): Promise<void> {
    const now = clock.now();
    const fresh: OutboxEntry[] = events.map((event) => ({
      event,
      attempts: 0,
      nextAttemptAt: now,
      lastError: null,
    }));
    const state: ProjectState = { ...next, outbox: [...next.outbox, ...fresh] };
    await store.set(stateKeys.state(rt.config.linkCaption), state);
    rt.state = state;
    counters.eventsEmitted += events.length;
  }

  async function recordHistory(rt: ProjectRuntime, at: number): Promise<void> {
    const project = rt.projectCache?.value;
    if (project === undefined) return;
    if (rt.history === null) {
      rt.history =
        (await store.get(stateKeys.history(rt.config.linkCaption), historySchema).catch(() => undefined)) ??
        [];
    }
    const sold = rt.rewardsCache
      ? rewardsSold(rt.rewardsCache.value)
      : Object.fromEntries(Object.entries(rt.state?.rewards ?? {}).map(([id, f]) => [id, f.sold]));
    const next = appendHistory(
      rt.history,
      { at, funding: project.current_funding, supporters: project.supporter_count, rewardsSold: sold },
      historyOptions,
    );
    if (next === null) return;
    rt.history = next;
    await store.set(stateKeys.history(rt.config.linkCaption), next);
  }

  function listFetcher<T>(
    rt: ProjectRuntime,
    feed: RequestTag,
    page: (offset: number, limit: number) => Promise<{ items: T[]; meta: { total: number } }>,
  ) {
    return async (offset: number, limit: number) => {
      const result = await request(rt, feed, () => page(offset, limit));
      return { items: result.items, total: result.meta.total };
    };
  }

  async function readFeedList<T>(
    rt: ProjectRuntime,
    feed: FeedName,
    tag: RequestTag,
    listName: string,
    state: ListState<T> | undefined,
    codec: ListItemCodec<T>,
    page: (offset: number, limit: number) => Promise<{ items: T[]; meta: { total: number } }>,
  ): Promise<ListReadResult<T>> {
    const now = clock.now();
    const result = await readList({
      state,
      codec,
      fetchPage: listFetcher(rt, tag, page),
      options: listOptions,
      now,
      heal: state !== undefined && now - state.lastFullReadAt >= healEveryMs,
    });
    if (result.kind === 'heal') counters.heals += 1;
    const f = feedOf(rt, feed);
    f.requestsPerPoll = 0.8 * f.requestsPerPoll + 0.2 * result.requests;
    if (result.flood !== undefined) {
      counters.floodsHeld += result.flood.held;
      const message = `flood guard on ${rt.config.linkCaption} ${listName}: ${result.flood.reason}; held ${result.flood.held} notices and re-baselined`;
      logger.warn({ project: rt.config.linkCaption, feed: listName, held: result.flood.held }, message);
      noteError(rt, message);
    }
    return result;
  }

  function trimPost<T extends { text?: string; message?: string; is_supporter_only?: boolean }>(post: T): T {
    const copy = { ...post };
    // Supporter-only content is never kept, even if an API ever returned it to this key.
    if (copy.is_supporter_only === true && typeof copy.text === 'string') copy.text = '';
    if (typeof copy.text === 'string' && copy.text.length > STORED_TEXT_MAX)
      copy.text = copy.text.slice(0, STORED_TEXT_MAX);
    if (typeof copy.message === 'string' && copy.message.length > STORED_TEXT_MAX)
      copy.message = copy.message.slice(0, STORED_TEXT_MAX);
    // Wall authors' real names are personal data fundbot never shows: only the public display name is kept.
    const author = (copy as { user?: { first_name?: unknown; last_name?: unknown } }).user;
    if (author && typeof author.first_name === 'string') {
      (copy as { user?: object }).user = { ...author, first_name: '', last_name: '' };
    }
    return copy;
  }

  function trimList<T extends { text?: string; message?: string; is_supporter_only?: boolean }>(
    state: ListState<T>,
  ): ListState<T> {
    return { ...state, entries: state.entries.map(trimPost) };
  }

  /** Reads the project; returns the new state part and its events (not yet committed). */
  async function fetchProjectPart(
    rt: ProjectRuntime,
    state: ProjectState,
    feed: RequestTag,
  ): Promise<{ state: ProjectState; events: FundbotEvent[] }> {
    const project = await request(rt, feed, () => rt.api.get());
    const now = clock.now();
    rt.projectCache = { value: project, fetchedAt: now };
    const ctx = { project: rt.config.linkCaption, detectedAt: now, currency: project.currency };
    const milestones = crossedMilestones({
      funding: project.current_funding,
      goal: project.funding_threshold,
      allOrNothing: project.project_type_all_or_nothing,
      milestones: rt.config.milestones ?? defaultMilestones,
      done: state.project?.milestonesDone ?? [],
    });
    const events: FundbotEvent[] = [];
    if (state.project === null) {
      if (announceWatching && !state.watchingAnnounced) events.push(watchingEvent(ctx, project));
    } else {
      events.push(...statusEvents(ctx, state.project.snapshot, project));
      events.push(...milestoneEvents(ctx, project, milestones.announce));
    }
    return {
      state: {
        ...state,
        project: { snapshot: project, milestonesDone: milestones.done },
        watchingAnnounced: state.watchingAnnounced || events.some((e) => e.type === 'watching'),
        readAt: { ...state.readAt, project: now },
      },
      events,
    };
  }

  async function pollProject(rt: ProjectRuntime, tag: RequestTag): Promise<void> {
    const state = await currentState(rt);
    const part = await fetchProjectPart(rt, state, tag);
    await commit(rt, part.state, part.events);
    await recordHistory(rt, clock.now());
  }

  async function pollIncentives(rt: ProjectRuntime, tag: RequestTag): Promise<void> {
    const state = await currentState(rt);
    const rewards: Incentive[] = [];
    for (let offset = 0; ; ) {
      const page = await request(rt, tag, () => rt.api.incentivesPage({ limit: 100, offset }));
      rewards.push(...page.items);
      offset += page.items.length;
      if (page.items.length === 0 || offset >= page.meta.total || offset >= 2000) break;
    }
    const now = clock.now();
    rt.rewardsCache = { value: rewards, fetchedAt: now };
    const diff = diffRewards(state.rewards, rewards);
    const currency = rt.projectCache?.value.currency ?? rewards[0]?.project?.currency ?? '';
    const events = rewardEvents(
      { project: rt.config.linkCaption, detectedAt: now, currency },
      diff.transitions,
    );
    await commit(rt, { ...state, rewards: diff.flags, readAt: { ...state.readAt, incentives: now } }, events);
    await recordHistory(rt, now);
  }

  async function pollFundings(rt: ProjectRuntime, tag: RequestTag): Promise<void> {
    let state = await currentState(rt);
    const result = await readFeedList(
      rt,
      'fundings',
      tag,
      'fundings',
      state.lists.fundings,
      fundingCodec,
      (offset, limit) => rt.api.fundingsPage({ limit, offset }),
    );
    const now = clock.now();
    const events: FundbotEvent[] = [];
    const projectFeed = feedOf(rt, 'project');
    let fundingAfter: number | null = null;
    const projectAge = now - (state.readAt['project'] ?? 0);
    if (
      result.fresh.length > 0 &&
      projectFeed.disabledReason === undefined &&
      projectAge >= projectRefreshOnChangeMs
    ) {
      // New supporters move the total: read it now for "funding total after" and prompt milestones.
      try {
        const part = await fetchProjectPart(rt, state, tag === 'command' ? 'command' : 'project');
        state = part.state;
        fundingAfter = rt.projectCache?.value.current_funding ?? null;
        events.push(...part.events);
        projectFeed.lastSuccessAt = now;
      } catch (error) {
        if (error instanceof DeferredError) throw error;
        logger.warn(
          { project: rt.config.linkCaption, err: String(error) },
          'project refresh after new supporters failed',
        );
      }
    }
    const currency = rt.projectCache?.value.currency ?? state.project?.snapshot.currency ?? '';
    events.unshift(
      ...supporterEvents(
        { project: rt.config.linkCaption, detectedAt: now, currency },
        result.fresh,
        burstThreshold,
        fundingAfter,
      ),
    );
    await commit(
      rt,
      {
        ...state,
        lists: { ...state.lists, fundings: result.state },
        readAt: { ...state.readAt, fundings: now },
      },
      events,
    );
    if (fundingAfter !== null) await recordHistory(rt, now);
  }

  async function pollWall(rt: ProjectRuntime, tag: RequestTag): Promise<void> {
    const state = await currentState(rt);
    const result = await readFeedList(rt, 'wall', tag, 'wall', state.lists.wall, wallCodec, (offset, limit) =>
      rt.api.wallPage({ limit, offset }),
    );
    const now = clock.now();
    const events = wallEvents(
      { project: rt.config.linkCaption, detectedAt: now },
      result.fresh,
      burstThreshold,
    );
    await commit(
      rt,
      {
        ...state,
        lists: { ...state.lists, wall: trimList(result.state) },
        readAt: { ...state.readAt, wall: now },
      },
      events,
    );
  }

  async function pollBlog(rt: ProjectRuntime, tag: RequestTag): Promise<void> {
    const state = await currentState(rt);
    const read = (blogType: BlogType, listState: ListState<BlogPost> | undefined) =>
      readFeedList(rt, 'blog', tag, `blog (${blogType})`, listState, blogCodec, (offset, limit) =>
        rt.api.blogPage({ blogType, limit, offset }),
      );
    const text = await read('text', state.lists.blogText);
    const story = await read('story', state.lists.blogStory);
    const now = clock.now();
    // A post can be listed under both types: announce its id once.
    const seenElsewhere = new Set([
      ...(state.lists.blogText?.entries ?? []).map(blogPostKey),
      ...(state.lists.blogStory?.entries ?? []).map(blogPostKey),
    ]);
    const fresh: FreshEntry<BlogPost>[] = [];
    for (const entry of [...text.fresh, ...story.fresh].sort(
      (a, b) => a.item.release_timestamp - b.item.release_timestamp,
    )) {
      if (seenElsewhere.has(entry.key)) continue;
      seenElsewhere.add(entry.key);
      fresh.push(entry);
    }
    const url = rt.projectCache?.value.url.main ?? state.project?.snapshot.url.main ?? null;
    const events = fresh.map((f) =>
      blogEvent({ project: rt.config.linkCaption, detectedAt: now }, f.item, url),
    );
    await commit(
      rt,
      {
        ...state,
        lists: { ...state.lists, blogText: trimList(text.state), blogStory: trimList(story.state) },
        readAt: { ...state.readAt, blog: now },
      },
      events,
    );
  }

  const pollers: Record<FeedName, (rt: ProjectRuntime, tag: RequestTag) => Promise<void>> = {
    fundings: pollFundings,
    project: pollProject,
    wall: pollWall,
    blog: pollBlog,
    incentives: pollIncentives,
  };

  function demandOf(rt: ProjectRuntime, feed: FeedName): FeedDemand {
    const f = feedOf(rt, feed);
    const state = rt.state;
    const list =
      feed === 'fundings'
        ? state?.lists.fundings
        : feed === 'wall'
          ? state?.lists.wall
          : feed === 'blog'
            ? state?.lists.blogText
            : undefined;
    let target = targets[feed];
    if (list !== undefined) {
      // Busy lists are polled more often (up to 1.5x); quiet ones (except fundings) slow down to half speed.
      target /= 1 + Math.min(0.5, list.newPerPoll / 2);
      const quietFor = clock.now() - (list.lastChangeAt ?? 0);
      if (feed !== 'fundings' && quietFor > 2 * 60 * 60_000) target *= 2;
    }
    return {
      feed,
      weight: weights[feed],
      targetIntervalMs: target,
      requestsPerPoll: Math.max(1, f.requestsPerPoll),
    };
  }

  /** Re-plans the intervals of every feed sharing `rt`'s credential. */
  function replan(rt: ProjectRuntime): void {
    const now = clock.now();
    const sharing = [...runtimes.values()].filter((r) => r.gate === rt.gate);
    const budget = api.budget(rt.config.key) ?? assumedBudget(now);
    const demands: FeedDemand[] = [];
    for (const r of sharing) {
      for (const feed of feedNames) {
        if (feedOf(r, feed).disabledReason !== undefined) continue;
        demands.push({ ...demandOf(r, feed), feed: `${r.config.linkCaption}/${feed}` });
      }
    }
    const plan = planIntervals({ budget, now, reservePct, demands });
    for (const r of sharing) {
      for (const feed of feedNames) {
        const interval = plan.get(`${r.config.linkCaption}/${feed}`);
        if (interval !== undefined) feedOf(r, feed).intervalMs = interval;
      }
    }
  }

  async function runFeed(rt: ProjectRuntime, feed: FeedName): Promise<void> {
    const f = feedOf(rt, feed);
    const now = clock.now();
    const report = (result: PollOutcome['result']) =>
      deps.onPoll?.({ project: rt.config.linkCaption, feed, result, durationMs: clock.now() - now });
    try {
      await rt.mutex.run(() => pollers[feed](rt, feed));
      report('ok');
      counters.polls += 1;
      f.lastSuccessAt = clock.now();
      f.failures = 0;
      replan(rt);
      // ±5% jitter so feeds and replicas do not fall into lockstep.
      f.dueAt = clock.now() + Math.round(f.intervalMs * (0.95 + 0.1 * random.next()));
    } catch (error) {
      report(
        error instanceof DeferredError
          ? 'skipped'
          : error instanceof RateLimitError
            ? 'rate_limited'
            : error instanceof ForbiddenError
              ? 'forbidden'
              : 'error',
      );
      handlePollError(rt, feed, error, now);
    }
  }

  function handlePollError(rt: ProjectRuntime, feed: FeedName, error: unknown, startedAt: number): void {
    const f = feedOf(rt, feed);
    const lc = rt.config.linkCaption;
    if (error instanceof DeferredError) {
      f.dueAt = Math.max(error.until, clock.now() + 1);
      return;
    }
    if (error instanceof RateLimitError) {
      f.dueAt = Math.max(rt.gate.blockedUntil, clock.now() + 1000);
      noteError(rt, `${feed}: rate limited, waiting until ${new Date(f.dueAt).toISOString()}`);
      logger.warn(
        { project: lc, feed, retryAfterMs: error.retryAfterMs },
        'rate limited: obeying Retry-After',
      );
      return;
    }
    if (error instanceof ForbiddenError && error.code === 'insufficient_scope') {
      f.disabledReason = `the key for ${lc} lacks ${scopeOf[feed]}: ${noticesOf[feed]} notices are off`;
      f.dueAt = Number.POSITIVE_INFINITY;
      noteError(rt, f.disabledReason);
      logger.warn(
        { project: lc, feed },
        `${f.disabledReason} (create a key with the ${scopeOf[feed]} scope to turn them on)`,
      );
      replan(rt);
      return;
    }
    f.failures += 1;
    const backoff = Math.min(f.intervalMs, 5_000 * 2 ** Math.min(10, f.failures - 1));
    f.dueAt = Math.max(startedAt, clock.now()) + Math.round(backoff * (0.75 + 0.5 * random.next()));
    const message = error instanceof Error ? error.message : String(error);
    // /status shows these notes in channels: the category only; the log line below has the details.
    noteError(rt, `${feed}: ${describeFailure(error)}`);
    logger.warn(
      { project: lc, feed, failures: f.failures, err: message },
      'poll failed: retrying with backoff',
    );
  }

  /** Holds (or acquires) the project's lease; reloads state after the lease was lost or never held. */
  async function ensureLease(rt: ProjectRuntime): Promise<boolean> {
    const now = clock.now();
    if (now < rt.leaseUntil - leaseTtlMs / 3) return true;
    if (now < rt.leaseRetryAt && rt.leaseUntil <= now) return false;
    const wasHeld = now < rt.leaseUntil;
    const ok = await lease.acquire(`fundbot:project:${rt.config.linkCaption}`, replicaId, leaseTtlMs);
    if (!ok) {
      rt.leaseUntil = 0;
      rt.leaseRetryAt = now + leaseTtlMs / 2;
      rt.state = null; // another replica writes it now: reload when the lease comes back
      return false;
    }
    if (!wasHeld) await rt.mutex.run(() => loadState(rt));
    rt.leaseUntil = now + leaseTtlMs;
    return true;
  }

  /**
   * Writes the outbox after a delivery attempt. When the store refuses the write, the
   * progress is kept in memory anyway: otherwise the loop would deliver the same event
   * again at once, over and over (a full disk still allows reads). The next successful
   * commit persists it; a crash before that re-delivers the same event id once, which the
   * delivery contract allows.
   */
  async function commitOutboxProgress(rt: ProjectRuntime, next: ProjectState): Promise<void> {
    try {
      await commit(rt, next, []);
    } catch (error) {
      rt.state = next;
      noteError(rt, 'the state store refused a write: delivery progress is kept in memory until it recovers');
      logger.error(
        { project: rt.config.linkCaption, err: error instanceof Error ? error.message : String(error) },
        'could not store delivery progress; continuing from memory',
      );
    }
  }

  async function drainProject(rt: ProjectRuntime): Promise<void> {
    for (;;) {
      const head = rt.state?.outbox[0];
      if (head === undefined || head.nextAttemptAt > clock.now()) return;
      try {
        await deliver(head.event);
      } catch (error) {
        counters.deliveryFailures += 1;
        const message = error instanceof Error ? error.message : String(error);
        await rt.mutex.run(async () => {
          const state = await currentState(rt);
          const outbox = state.outbox.map((e) =>
            e.event.id === head.event.id
              ? {
                  ...e,
                  attempts: e.attempts + 1,
                  nextAttemptAt: clock.now() + deliveryBackoffMs(e.attempts + 1, () => random.next()),
                  lastError: message.slice(0, 300),
                }
              : e,
          );
          await commitOutboxProgress(rt, { ...state, outbox });
        });
        logger.warn(
          { project: rt.config.linkCaption, event: head.event.id, err: message },
          'delivery failed: will retry',
        );
        return;
      }
      await rt.mutex.run(async () => {
        const state = await currentState(rt);
        await commitOutboxProgress(rt, {
          ...state,
          outbox: state.outbox.filter((e) => e.event.id !== head.event.id),
        });
      });
      counters.eventsDelivered += 1;
    }
  }

  async function drainOutbox(): Promise<void> {
    await Promise.all(
      [...runtimes.values()].filter((rt) => clock.now() < rt.leaseUntil).map((rt) => drainProject(rt)),
    );
  }

  async function runProject(rt: ProjectRuntime): Promise<void> {
    if (!(await ensureLease(rt))) return;
    if (rt.state === null) await rt.mutex.run(() => currentState(rt));
    const now = clock.now();
    const due = feedNames.filter((feed) => {
      const f = feedOf(rt, feed);
      return f.disabledReason === undefined && f.dueAt <= now;
    });
    for (const feed of due) await runFeed(rt, feed);
    await drainProject(rt);
  }

  async function runDue(): Promise<void> {
    await Promise.all([...runtimes.values()].map((rt) => runProject(rt)));
  }

  function nextDueAt(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const rt of runtimes.values()) {
      if (clock.now() >= rt.leaseUntil) {
        next = Math.min(next, rt.leaseRetryAt);
        continue;
      }
      next = Math.min(next, rt.leaseUntil - leaseTtlMs / 3);
      for (const f of rt.feeds.values()) {
        if (f.disabledReason === undefined) next = Math.min(next, Math.max(f.dueAt, rt.gate.blockedUntil));
      }
      const head = rt.state?.outbox[0];
      if (head !== undefined) next = Math.min(next, head.nextAttemptAt);
    }
    return Number.isFinite(next) ? next : clock.now() + 60_000;
  }

  let loop: Promise<void> | null = null;
  let abort: AbortController | null = null;

  async function start(): Promise<void> {
    if (loop !== null) return;
    const controller = new AbortController();
    abort = controller;
    loop = (async () => {
      let failedCycles = 0;
      while (!controller.signal.aborted) {
        try {
          await runDue();
          failedCycles = 0;
        } catch (error) {
          failedCycles += 1;
          logger.error(
            { err: error instanceof Error ? error.message : String(error), failedCycles },
            'engine cycle failed',
          );
        }
        if (controller.signal.aborted) break;
        // After a failed cycle nothing may be "due" any later than before: back off (1 s doubling to 60 s).
        const backoff = failedCycles > 0 ? Math.min(60_000, 1_000 * 2 ** (failedCycles - 1)) : 0;
        const wait = Math.max(backoff, nextDueAt() - clock.now());
        try {
          await clock.sleep(wait, controller.signal);
        } catch {
          break;
        }
      }
    })();
  }

  async function stop(): Promise<void> {
    abort?.abort(new Error('engine stopped'));
    await loop;
    loop = null;
    abort = null;
    for (const rt of runtimes.values()) {
      if (clock.now() < rt.leaseUntil)
        await lease.release(`fundbot:project:${rt.config.linkCaption}`, replicaId);
      rt.leaseUntil = 0;
      rt.leaseRetryAt = clock.now();
    }
  }

  const readModel = createReadModel({
    clock,
    runtimes,
    flights,
    currentState,
    feedOf,
    budgetOf: (rt) => api.budget(rt.config.key),
    refresh: async (rt, feed, isFresh) => {
      const f = feedOf(rt, feed);
      if (f.disabledReason !== undefined) throw new Error(f.disabledReason);
      if (clock.now() >= rt.leaseUntil && !(await ensureLease(rt))) {
        throw new Error(
          `another replica polls ${rt.config.linkCaption}; its cached data is not available here`,
        );
      }
      const polled = await rt.mutex.run(async () => {
        // Re-checked under the lock: a cycle that just finished may have refreshed it.
        if (isFresh()) return false;
        await pollers[feed](rt, 'command');
        return true;
      });
      if (polled) {
        f.lastSuccessAt = clock.now();
        // A command's read counts as the feed's poll: the next scheduled one moves back.
        f.dueAt = Math.max(f.dueAt, clock.now() + f.intervalMs);
      }
    },
    commandRequest: (rt, send) => request(rt, 'command', send),
    loadHistory: async (rt) => {
      if (rt.history === null) {
        rt.history = (await store.get(stateKeys.history(rt.config.linkCaption), historySchema)) ?? [];
      }
      return rt.history;
    },
  });

  return {
    start,
    stop,
    nextDueAt,
    runDue,
    drainOutbox,
    readModel,
    metrics: () => ({ ...counters, requests: { ...counters.requests } }),
  };
}
