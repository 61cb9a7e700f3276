import { FEED_STOP_HOLD_MS } from '../domain/feed-health.js';
import type { FeedName } from '../domain/feeds.js';
import type { EngineOptions } from './engine-options.js';
import { defaultHistoryOptions, type HistoryOptions } from './history.js';
import { defaultListReadOptions, type ListReadOptions } from './list-assessment.js';

/**
 * The process-wide polling ceiling's default: at 1,000 projects a day's pace is about
 * 100 requests a second (12-14 % of a core, bench `scale`), so 200 never slows a normal
 * day and keeps a late-day fresh start near a quarter of a core.
 */
export const DEFAULT_MAX_REQUESTS_PER_SECOND = 200;

/**
 * A poll's next one comes after its interval times 1 ± this, drawn at random, so feeds and replicas do
 * not fall into lockstep (scheduler.ts).
 */
export const POLL_JITTER = 0.05;

/** {@link EngineOptions} with every default filled in. */
export interface EngineSettings {
  readonly reserveShare: number;
  readonly burstThreshold: number;
  readonly healEveryMs: number;
  readonly projectRefreshOnChangeMs: number;
  readonly leaseTtlMs: number;
  readonly historyOptions: HistoryOptions;
  /** Operator-set floor intervals per feed (none by default: the budget decides). */
  readonly targets: Readonly<Partial<Record<FeedName, number>>>;
  /** The shortest interval any feed is polled at when the budget would allow faster. */
  readonly minIntervalMs: number;
  readonly maxConcurrentProjects: number;
  /**
   * Requests a second this process sends for polling at most, all projects together: the operator's, or (not
   * `ceilingConfigured`) the default the census replaces by the ceiling sized from the keys (process-ceiling.ts).
   */
  readonly maxRequestsPerSecond: number;
  readonly ceilingConfigured: boolean;
  readonly publicReads: boolean;
  readonly listOptions: ListReadOptions;
  /** A stopped feed is said in its channels once it lasted this long (domain/feed-health.ts). */
  readonly feedHealthHoldMs: number;
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
