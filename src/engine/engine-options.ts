import type { ApiClient, UserKey } from '../api/index.js';
import type { EventSink } from '../domain/event-sink.js';
import type { FundbotEvent } from '../domain/events.js';
import { FEED_STOP_HOLD_MS } from '../domain/feed-health.js';
import type { FeedName } from '../domain/feeds.js';
import type { Logger } from '../domain/logger.js';
import type { ProjectReadModel } from '../domain/read-model.js';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { KeyValueStore } from '../lib/store.js';
import type { EngineProject, PollOutcome } from './context/engine-project.js';
import { DEFAULT_MAX_REQUESTS_PER_SECOND, type EngineSettings } from './context/engine-settings.js';
import type { Lease } from './lease/lease.js';
import { defaultListReadOptions } from './lists/list-assessment.js';
import type { ProcessCeiling } from './schedule/process-ceiling.js';
import { defaultHistoryOptions, type HistoryOptions } from './state/history.js';

export type { FeedName } from '../domain/feeds.js';
export type { EngineProject, KeySource, PollOutcome, RejectedKeyCode } from './context/engine-project.js';

export interface EngineOptions {
  /**
   * Share (0..1) of the day and minute budget left for slash commands. Default 0.15.
   * Not the config's `reservePct` (a percentage): the composition root divides it by 100.
   */
  readonly reserveShare?: number;
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
  /**
   * Shortest interval per feed (ms), replacing `minIntervalMs` for that feed. Default
   * none: every feed's interval follows what is left of the budget (see budget-plan.ts).
   */
  readonly targetIntervalsMs?: Partial<Record<FeedName, number>>;
  /** Politeness floor: no feed is polled more often than this, however big the plan. Default 1 s. */
  readonly minIntervalMs?: number;
  /**
   * Projects polled at the same time (each on its own schedule; a slow request
   * delays only its own project). Default 48: with 1,000 projects and 1% of requests
   * slow, every project's first poll within 15 s of start (bench `scale`).
   */
  readonly maxConcurrentProjects?: number;
  /**
   * Polling requests a second for the whole process at most, shared by the projects it
   * polls in proportion (each key's budget still applies). Default 200.
   */
  readonly maxRequestsPerSecond?: number;
  /**
   * Read a public project (status `started` on) without a credential while the per-IP
   * public budget allows, leaving the key's budget to the lists. Default true.
   */
  readonly publicReads?: boolean;
  /** Re-read each list's window region at least this often. Default one day. */
  readonly healEveryMs?: number;
  /**
   * A command that finds new supporters re-reads the project (from the reserve) only when it is older
   * than this. Default 45 s. (A poll re-reads it whenever the plan allows: see feeds/fundings.ts.)
   */
  readonly projectRefreshOnChangeMs?: number;
  readonly leaseTtlMs?: number;
  readonly history?: Partial<HistoryOptions>;
  /** How long a feed must stay stopped before its channels are told (domain/feed-health.ts). Default 3 minutes. */
  readonly feedHealthHoldMs?: number;
}

export interface CreateEngineOptions {
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly random: Random;
  /** The domain Logger port (a pino logger fits). Default: silent. */
  readonly logger?: Logger;
  readonly projects: readonly EngineProject[];
  /**
   * Where the outbox hands its events (the delivery pipeline): every event is offered
   * at least once and kept until the sink reports it done; a repeat (after a crash)
   * carries the SAME `event.id`, and no entry ever gets two different events. Use
   * `event.id` as the idempotency key. Give either `sink` or `deliver`.
   */
  readonly sink?: EventSink;
  /**
   * A plain in-order consumer instead of a sink (the benchmark's recorder, tests): one
   * event at a time per project; a throw keeps the event (and those after it) for a
   * retry with backoff.
   */
  readonly deliver?: (event: FundbotEvent) => Promise<void>;
  readonly options?: EngineOptions;
  /** Who may poll which project. Default: an in-memory lease (one process). */
  readonly lease?: Lease;
  /** This replica's lease holder name. Default 'replica-1'. */
  readonly replicaId?: string;
  /** Told about every finished poll of a feed: for metrics and health (must not throw). */
  readonly onPoll?: (poll: PollOutcome) => void;
  /**
   * A User API key (`project:read`): `/user/me/projects` is read on the user key's own
   * budget (at most 90% of it) as a change signal; a project whose supporter count or
   * funding moved has its fundings polled at once, and a covered project's own fundings
   * polling slows down. Off when absent.
   */
  readonly userKey?: UserKey;
  /**
   * Replicas: whether this replica holds the fleet's User-key reader lease now. Only the holder reads the
   * key; it shares each read in the store and the others follow it from there, so the fleet reads the key
   * at one process's pace (issue 30). Absent: this process reads (one process).
   */
  readonly userKeyReader?: () => boolean;
}

export interface EngineMetrics {
  readonly requests: Readonly<Record<FeedName | 'command', number>>;
  readonly polls: number;
  /** Project reads sent without a credential (the per-IP public budget). */
  readonly publicReads: number;
  readonly eventsEmitted: number;
  readonly eventsDelivered: number;
  readonly deliveryFailures: number;
  readonly floodsHeld: number;
  readonly heals: number;
  /** `/user/me/projects` reads on the User API key, and the fundings polls they asked for (0 without a user key). */
  readonly userReads: number;
  readonly userSignals: number;
}

/** The event engine: poller, scheduler, outbox and read model. See src/engine/index.ts. */
export interface Engine {
  /** Starts the real-time loop (clock.sleep between cycles). Resolves once started. */
  start(): Promise<void>;
  /** Stops the loop; resolves after the cycle in flight has finished. Releases the leases. */
  stop(): Promise<void>;
  /** Epoch ms of the earliest due poll, delivery retry or lease renewal. */
  nextDueAt(): number;
  /**
   * Runs every poll due at clock.now(), then delivers what the outbox holds; waits for
   * every project (the real-time loop started by `start()` does not: it runs each
   * project on its own schedule).
   */
  runDue(): Promise<void>;
  /** Offers the outbox of every project to the sink and removes what it is done with. */
  drainOutbox(): Promise<void>;
  readonly readModel: ProjectReadModel;
  metrics(): EngineMetrics;
  /** The process-wide polling ceiling: its size and whether it, not the keys, sets the pace (no request). */
  ceiling(): ProcessCeiling;
  /** Per project, for health checks (no request): is polling paused, and which feeds are off. */
  status(): readonly ProjectPollingStatus[];
  /**
   * The operator replaced this project's key: a paused project is probed and its
   * switched-off feeds re-checked at once, instead of at the next 10-minute retry.
   */
  keyReplaced(linkCaption: string): void;
  /**
   * The project's lease was just granted to this replica (the balancer took it over from a
   * replica that died or left): its run starts at once instead of at the next lease retry
   * (a third of the TTL later). Costs no request of its own.
   */
  leaseGranted(linkCaption: string): void;
  /**
   * Watches a project from now on (connected from chat): false when it is watched already. Every feed is
   * due at once; on replicas the lease decides, as for a configured project.
   */
  addProject(project: EngineProject): boolean;
  /**
   * Stops watching a project (disconnected); its stored state stays until deleted. Resolves once a run of it in
   * flight has settled, so nothing of this runtime is written after. False when unknown.
   */
  removeProject(linkCaption: string): Promise<boolean>;
  /**
   * Runs a just-added project's first poll cycle now (all its feeds, under its lease) and resolves once it
   * is committed: true when the fundings list's baseline is stored, so every supporter who funds from now
   * on is announced (issue 30). False when it could not be read (lease elsewhere, key refused, a failure).
   */
  readBaseline(linkCaption: string): Promise<boolean>;
  /**
   * Deletes everything stored of a project this engine does not watch (state, history, status): a
   * disconnected project, or what an earlier connection left before a new one reads its own baseline.
   * Returns how many values went. Throws while the project is watched.
   */
  forgetState(linkCaption: string): Promise<number>;
}

/** What health needs to know about one project's polling. */
export interface ProjectPollingStatus {
  readonly project: string;
  /**
   * Set while the platform rejects the project's key (`invalid_api_key`,
   * `key_project_mismatch`): no feed is polled; the key is tried again with one list read, backing off from 5 s to every
   * 30-50 s (a key of another project: every 10 minutes), and at once when it is replaced (key-pause.ts).
   */
  readonly paused: { readonly reason: string; readonly since: number } | null;
  /** Feeds switched off because the key lacks their scope (re-checked from 5 s, backing off as key-pause.ts says). */
  readonly disabledFeeds: readonly FeedName[];
}

/** Fills in the defaults; no target interval by default (intervals follow the budget down to `minIntervalMs`). */
export function engineSettings(o: EngineOptions = {}): EngineSettings {
  return {
    reserveShare: o.reserveShare ?? 0.15,
    burstThreshold: o.burstThreshold ?? 10,
    healEveryMs: o.healEveryMs ?? 24 * 60 * 60_000,
    projectRefreshOnChangeMs: o.projectRefreshOnChangeMs ?? 45_000,
    leaseTtlMs: o.leaseTtlMs ?? 60_000,
    historyOptions: { ...defaultHistoryOptions, ...o.history },
    targets: { ...o.targetIntervalsMs },
    minIntervalMs: o.minIntervalMs ?? 1_000,
    maxConcurrentProjects: o.maxConcurrentProjects ?? 48,
    maxRequestsPerSecond: o.maxRequestsPerSecond ?? DEFAULT_MAX_REQUESTS_PER_SECOND,
    ceilingConfigured: o.maxRequestsPerSecond !== undefined,
    publicReads: o.publicReads ?? true,
    feedHealthHoldMs: o.feedHealthHoldMs ?? FEED_STOP_HOLD_MS,
    listOptions: {
      ...defaultListReadOptions,
      ...(o.floodRatio !== undefined ? { floodRatio: o.floodRatio } : {}),
      ...(o.floodMin !== undefined ? { floodMin: o.floodMin } : {}),
      ...(o.windowSize !== undefined ? { windowSize: o.windowSize } : {}),
      ...(o.overlap !== undefined ? { overlap: o.overlap } : {}),
    },
  };
}
