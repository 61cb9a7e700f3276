import { type FeedName, feedNames, feedTable } from '../../domain/feeds.js';
import type { EngineServices } from '../context/engine-services.js';
import { type FeedDemand, planIntervals } from './budget-plan.js';
import { assumedBudget } from './credential-gate.js';
import { fundingsPace } from './fundings-pace.js';
import { targetIntervalMs } from './latency-bound.js';
import { fastestSpedUpIntervalMs } from './process-ceiling.js';
import { KEYED_READ_EVERY, readsOnPublic } from './public-project-read.js';
import { censusOf } from './runtime-census.js';
import type { PlannedProject, PlannedProjects } from './schedule-slice.js';
import { feedOf } from './schedule-slice.js';

/** A list unchanged for this long (other than fundings) gets half its share of the budget. */
const QUIET_AFTER_MS = 2 * 60 * 60_000;

/** Past this interval the public budget is spread too thin (many projects): the project is planned on the key. */
const PUBLIC_PROJECT_MAX_INTERVAL_MS = 5 * 60_000;

/**
 * The project poll's interval that spends this project's part of the per-IP public budget evenly
 * to its reset (a public read is one of every {@link KEYED_READ_EVERY} but one), or undefined when
 * the project is not read on it or the budget is too thin. Spent greedily instead, the public
 * budget ran out in the afternoon and every later project read fell on the key.
 */
function publicProjectInterval(
  ctx: EngineServices & PlannedProjects,
  rt: PlannedProject,
  now: number,
  projectsHere: number,
): number | undefined {
  const budget = ctx.api.budget();
  if (budget === undefined || !readsOnPublic(ctx, rt)) return undefined;
  const spendable = budget.dayRemaining - ctx.settings.reserveShare * budget.dayLimit;
  if (spendable <= 0) return undefined;
  const timeLeft = Math.max(60_000, budget.dayResetAt - now);
  const interval = (timeLeft * (1 - 1 / KEYED_READ_EVERY) * Math.max(1, projectsHere)) / spendable;
  return interval <= PUBLIC_PROJECT_MAX_INTERVAL_MS ? interval : undefined;
}

/** What `feed` of `rt` wants from the planner at its current activity. */
export function demandOf(
  ctx: EngineServices & PlannedProjects,
  rt: PlannedProject,
  feed: FeedName,
  projectsHere = 1,
): FeedDemand {
  const f = feedOf(rt, feed);
  const onPublic =
    feed === 'project' && ctx.settings.targets.project === undefined
      ? publicProjectInterval(ctx, rt, ctx.clock.now(), projectsHere)
      : undefined;
  if (onPublic !== undefined) {
    // Read at the public budget's pace; the key pays only its every KEYED_READ_EVERYth read. On a plan
    // bigger than the other feeds can use, the leftover reads it faster (milestones and status sooner).
    return {
      feed,
      weight: feedTable[feed].weight,
      targetIntervalMs: ctx.settings.minIntervalMs,
      requestsPerPoll: 1 / KEYED_READ_EVERY,
      targetMs: Math.max(onPublic, ctx.settings.minIntervalMs),
    };
  }
  const state = rt.state;
  const list =
    feed === 'fundings'
      ? state?.lists.fundings
      : feed === 'wall'
        ? state?.lists.wall
        : feed === 'blog'
          ? state?.lists.blogText
          : undefined;
  // Activity moves the feed's share of the budget: busy lists get up to 1.5x, lists
  // quiet for two hours (except fundings) half of it.
  let activity = 1;
  if (list !== undefined) {
    // Not for fundings: their pace follows the arrival rhythm (fundings-pace.ts); a boost after every
    // new supporter only made their intervals uneven, which raises the p95 at a steady rate.
    if (feed !== 'fundings') activity = 1 + Math.min(0.5, list.newPerPoll / 2);
    // Quiet since the last new entry, or since the baseline: a list just read for the first
    // time is not "quiet for ever" (that halved wall and blog polling after every fresh start).
    const quietFor = ctx.clock.now() - (list.lastChangeAt ?? list.baselineAt ?? list.lastFullReadAt);
    if (feed !== 'fundings' && quietFor > QUIET_AFTER_MS) activity /= 2;
  }
  // An operator's explicit interval is a floor that follows activity like the share does. Without
  // one, a feed with a latency target (wall, blog, rewards) is granted first the interval that meets it
  // (latency-bound.ts); the supporters get the rest, and what they leave (a big plan) lets it go faster.
  const explicit = ctx.settings.targets[feed];
  const forTarget = explicit === undefined ? targetIntervalMs(feed) : undefined;
  const floor = explicit !== undefined ? explicit / activity : ctx.settings.minIntervalMs;
  // A fundings feed covered by the User API key's change signal keeps its full share: the polls the
  // signal asks for come out of the same key budget, and the planner, re-planning from the headers,
  // already slows the idle polling by what they cost. Measured on the Pro launch day: a covered feed
  // at 0.75 of its share gave supporter p95 12.7 s, at its full share 11.3 s (bench proWithUserKey).
  return {
    feed,
    weight: feedTable[feed].weight * activity,
    targetIntervalMs: Math.max(1, floor, ctx.settings.minIntervalMs),
    // The regular pages of a poll; its one-off requests are taken off the capacity (replan below).
    requestsPerPoll: Math.max(1, f.requestsPerPoll),
    ...(forTarget !== undefined ? { targetMs: Math.max(forTarget, floor, ctx.settings.minIntervalMs) } : {}),
  };
}

/**
 * Re-plans the intervals of every feed sharing `rt`'s credential (pure arithmetic, no request).
 *
 * The credential's plan is also held to its share of the process-wide ceiling
 * (`maxRequestsPerSecond`): its projects' share of the projects this process polls
 * (leased, not paused). Each key's budget alone would let a fresh start late in a
 * UTC day spend the day's remainder in the hours left, up to each key's minute
 * limit: with 1,000 keys that is 1,700 requests a second, more than one process
 * serves. During the day each key's budget share is far below the ceiling's.
 */
export function replan(ctx: EngineServices & PlannedProjects, rt: PlannedProject): void {
  const now = ctx.clock.now();
  // Who shares the key and who polls here: counted once a second, not at every poll (runtime-census.ts).
  const census = censusOf(ctx, rt);
  const sharing = census.sharing.get(rt.gate) ?? [rt];
  const polledHere = census.polledHereTotal;
  const sharingPolledHere = census.polledHere.get(rt.gate) ?? 0;
  const maxRatePerMs =
    (census.ceiling.perSecond / 1000) *
    (Math.max(1, sharingPolledHere) / Math.max(1, polledHere, sharingPolledHere));
  const budget = ctx.api.budget(rt.config.key) ?? assumedBudget(now);
  const demands: FeedDemand[] = [];
  // Every request counts (issue 22): the one-offs' rate (sweeps, fills, searches) comes off the capacity.
  let oneOffRatePerMs = 0;
  for (const r of sharing) {
    for (const feed of feedNames) {
      oneOffRatePerMs +=
        feedOf(r, feed).oneOffs.rate(now) + (feedOf(r, feed).signalPolls?.rate(now, budget.dayResetAt) ?? 0);
      if (feedOf(r, feed).disabledReason !== undefined) continue;
      demands.push({ ...demandOf(ctx, r, feed, polledHere), feed: `${r.config.linkCaption}/${feed}` });
    }
  }
  const plan = planIntervals({
    budget,
    now,
    reserveShare: ctx.settings.reserveShare,
    demands,
    maxRatePerMs,
    overheadPerMs: oneOffRatePerMs,
  });
  // The fastest any one feed may go, whatever its pace: the minute cap and the process ceiling.
  const fastestMs =
    1 / Math.min((budget.minuteLimit * (1 - ctx.settings.reserveShare)) / 60_000, maxRatePerMs);
  // What the key's slice of the ceiling leaves over its whole plan, shared by its fundings feeds: all a
  // speed-up may add (process-ceiling.ts).
  let plannedPerMs = oneOffRatePerMs;
  const fundingsPerPoll = new Map<string, number>();
  for (const d of demands) {
    plannedPerMs += d.requestsPerPoll / (plan.get(d.feed) ?? Number.POSITIVE_INFINITY);
    if (d.feed.endsWith('/fundings')) fundingsPerPoll.set(d.feed, d.requestsPerPoll);
  }
  const headroomPerMs = Math.max(0, maxRatePerMs - plannedPerMs) / Math.max(1, fundingsPerPoll.size);
  for (const r of sharing) {
    for (const feed of feedNames) {
      const key = `${r.config.linkCaption}/${feed}`;
      const interval = plan.get(key);
      if (interval === undefined) continue;
      if (feed !== 'fundings') {
        feedOf(r, feed).intervalMs = interval;
        continue;
      }
      // Where the supporters are: fundings slower in lulls, faster in bursts (fundings-pace.ts), the
      // speed-up within the ceiling's headroom. The next re-plans, from the headers, pay for it from the
      // rest of the day.
      const perPoll = fundingsPerPoll.get(key) ?? 1;
      const fastest = Math.max(fastestMs, fastestSpedUpIntervalMs(interval, perPoll, headroomPerMs));
      feedOf(r, feed).intervalMs = pacedInterval(ctx, r, interval, budget, now, fastest);
    }
  }
}

/**
 * The fundings interval at the arrival rhythm's pace (fundings-pace.ts): never under the politeness
 * floor, an explicit target or `fastestMs`, and not paced at all while nothing is spendable
 * (waiting for the reset).
 */
function pacedInterval(
  ctx: EngineServices & PlannedProjects,
  rt: PlannedProject,
  intervalMs: number,
  budget: { readonly dayRemaining: number; readonly dayLimit: number; readonly dayResetAt: number },
  now: number,
  fastestMs: number,
): number {
  const spendable = budget.dayRemaining - ctx.settings.reserveShare * budget.dayLimit;
  if (spendable <= 0) return intervalMs;
  const keyAlone = feedOf(rt, 'fundings').signalWindow === undefined;
  const pace = fundingsPace(rt.arrivals, now, intervalMs, budget.dayResetAt, keyAlone);
  if (pace === 1) return intervalMs;
  const explicit = ctx.settings.targets.fundings ?? 0;
  return Math.max(ctx.settings.minIntervalMs, explicit, fastestMs, intervalMs / pace);
}
