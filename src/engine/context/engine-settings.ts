import type { FeedName } from '../../domain/feeds.js';
import type { ListReadOptions } from '../lists/list-assessment.js';

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

/** How the funding history is kept (state/history.ts). */
export interface HistoryOptions {
  /** Points younger than this are kept as taken. Default one day. */
  readonly rawWindowMs: number;
  /** Older points are downsampled to one per bucket (the last of it). Default 15 minutes. */
  readonly bucketMs: number;
  /** Hard cap on points; the oldest go first. Default 5,000 (a day raw plus about 40 days downsampled). */
  readonly maxPoints: number;
}

/** The engine's options (engine-options.ts) with every default filled in (`engineSettings` there). */
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
