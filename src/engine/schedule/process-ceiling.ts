import { DEFAULT_MAX_REQUESTS_PER_SECOND } from '../context/engine-settings.js';

/**
 * The process-wide polling ceiling (`engine.maxRequestsPerSecond`): how it is sized when the operator set
 * none, and whether it, not the keys, sets the pace. One place for the rule; the census (runtime-census.ts)
 * applies it once a second, replan.ts shares the result among the keys, and the app says it out loud
 * (src/app/watch-polling-ceiling.ts: /status, /healthz, a metric and a log line).
 */

/**
 * CPU the compiled bot spends per API request, all of it (reading, diffing, committing, delivering): bench
 * `scale`, 1,000 projects on SQLite at their plan's pace (issue 22: 1.65 ms; issue 33's bot runs 1.5-1.6 ms).
 */
export const CPU_MS_PER_REQUEST = 1.65;

/**
 * The share of one core the polling may take: Node runs the process's JavaScript on one thread, and the
 * rest of that core is for delivery bursts, slash commands, the digest's chart and the GC.
 */
export const POLLING_CORE_SHARE = 0.5;

/** Over the keys' whole-day pace: room to catch up after a restart, and the hedged copies of slow requests. */
export const PLAN_HEADROOM = 1.25;

/** The most one process polls: {@link POLLING_CORE_SHARE} of a core at {@link CPU_MS_PER_REQUEST}. */
export const CPU_BOUND_PER_SECOND = Math.floor((POLLING_CORE_SHARE * 1000) / CPU_MS_PER_REQUEST);

/**
 * The ceiling when the operator set none: the keys' whole-day plans (their day limits spread over a day,
 * with {@link PLAN_HEADROOM}), never below the old default (a late-day fresh start of a few keys stays
 * as it was) and never above what the CPU allows ({@link CPU_BOUND_PER_SECOND}). 1,000 Pro keys: 200;
 * 3,000: 303 (their plan is 347 a second, 295 after the reserve).
 */
export function sizedCeilingPerSecond(dayLimits: Iterable<number>): number {
  let planned = 0;
  for (const limit of dayLimits) planned += limit / 86_400;
  return Math.round(
    Math.max(DEFAULT_MAX_REQUESTS_PER_SECOND, Math.min(CPU_BOUND_PER_SECOND, planned * PLAN_HEADROOM)),
  );
}

/** Where the process ceiling stands, for the app to tell (no request, no I/O). */
export interface ProcessCeiling {
  /** Requests a second this process polls at most, all projects together. */
  readonly perSecond: number;
  /** `configured`: engine.maxRequestsPerSecond; `sized`: {@link sizedCeilingPerSecond}. */
  readonly source: 'configured' | 'sized';
  /** What the keys polled here would spend a second by their own budgets (their pace, reserve kept). */
  readonly keysPerSecond: number;
  /** Keys polled here (each counted once, however many projects share it). */
  readonly keys: number;
  /** The ceiling, not the keys, sets the pace: the keys would spend more than it allows. */
  readonly binds: boolean;
}

/**
 * Whether the ceiling binds. A 2 % margin: the keys' pace moves with every header, and a pace that only
 * touches the ceiling slows nobody.
 */
export function ceilingBinds(perSecond: number, keysPerSecond: number): boolean {
  return keysPerSecond > perSecond * 1.02;
}

/**
 * The shortest interval a fundings speed-up (a burst, a busy hour: fundings-pace.ts) may take: the plan's own
 * rate for the feed plus `headroomPerMs`, this feed's part of what its key's slice of the ceiling leaves over the
 * key's whole plan. A speed-up spends only requests the process can afford, so it never makes the ceiling bind
 * by itself: when every project shares one rhythm (the bench's 1,000 synthetic projects, a fleet that all
 * launched at once) they all speed up together, and an uncapped 1.5x would ask the process for more than its
 * ceiling; when the keys' own plans already fill the ceiling (3,000 Pro projects in one process) nothing is
 * left and the plan's pace stands. A lull's slower reads are not capped: they only spend less.
 */
export function fastestSpedUpIntervalMs(
  intervalMs: number,
  requestsPerPoll: number,
  headroomPerMs: number,
): number {
  return requestsPerPoll / (requestsPerPoll / intervalMs + Math.max(0, headroomPerMs));
}
