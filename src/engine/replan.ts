import { type FeedName, feedNames, feedTable } from '../domain/feeds.js';
import { type FeedDemand, planIntervals } from './budget-plan.js';
import { assumedBudget } from './credential-gate.js';
import type { EngineContext } from './engine-context.js';
import { feedOf, type ProjectRuntime } from './project-runtime.js';

/** A list unchanged for this long (other than fundings) gets half its share of the budget. */
const QUIET_AFTER_MS = 2 * 60 * 60_000;

/** What `feed` of `rt` wants from the planner at its current activity. */
export function demandOf(ctx: EngineContext, rt: ProjectRuntime, feed: FeedName): FeedDemand {
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
  // Activity moves the feed's share of the budget: busy lists get up to 1.5x, lists
  // quiet for two hours (except fundings) half of it.
  let activity = 1;
  if (list !== undefined) {
    activity = 1 + Math.min(0.5, list.newPerPoll / 2);
    // Quiet since the last new entry, or since the baseline: a list just read for the first
    // time is not "quiet for ever" (that halved wall and blog polling after every fresh start).
    const quietFor = ctx.clock.now() - (list.lastChangeAt ?? list.baselineAt ?? list.lastFullReadAt);
    if (feed !== 'fundings' && quietFor > QUIET_AFTER_MS) activity /= 2;
  }
  // An operator's explicit interval is a floor that follows activity like the share does.
  const explicit = ctx.settings.targets[feed];
  const floor = explicit !== undefined ? explicit / activity : ctx.settings.minIntervalMs;
  // A fundings feed covered by the User API key's change signal keeps its full share: the polls the
  // signal asks for come out of the same key budget, and the planner, re-planning from the headers,
  // already slows the idle polling by what they cost. Measured on the Pro launch day: a covered feed
  // at 0.75 of its share gave supporter p95 12.7 s, at its full share 11.3 s (bench proWithUserKey).
  return {
    feed,
    weight: feedTable[feed].weight * activity,
    targetIntervalMs: Math.max(1, floor),
    requestsPerPoll: Math.max(1, f.requestsPerPoll),
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
export function replan(ctx: EngineContext, rt: ProjectRuntime): void {
  const now = ctx.clock.now();
  const sharing: ProjectRuntime[] = [];
  let polledHere = 0;
  let sharingPolledHere = 0;
  // One pass over the projects (this runs after every poll): who shares the key, who polls here.
  for (const r of ctx.runtimes.values()) {
    const shares = r.gate === rt.gate;
    if (shares) sharing.push(r);
    if (now < r.leaseUntil && r.paused === null) {
      polledHere += 1;
      if (shares) sharingPolledHere += 1;
    }
  }
  const maxRatePerMs =
    (ctx.settings.maxRequestsPerSecond / 1000) *
    (Math.max(1, sharingPolledHere) / Math.max(1, polledHere, sharingPolledHere));
  const budget = ctx.api.budget(rt.config.key) ?? assumedBudget(now);
  const demands: FeedDemand[] = [];
  for (const r of sharing) {
    for (const feed of feedNames) {
      if (feedOf(r, feed).disabledReason !== undefined) continue;
      demands.push({ ...demandOf(ctx, r, feed), feed: `${r.config.linkCaption}/${feed}` });
    }
  }
  const plan = planIntervals({
    budget,
    now,
    reserveShare: ctx.settings.reserveShare,
    demands,
    maxRatePerMs,
  });
  for (const r of sharing) {
    for (const feed of feedNames) {
      const interval = plan.get(`${r.config.linkCaption}/${feed}`);
      if (interval !== undefined) feedOf(r, feed).intervalMs = interval;
    }
  }
}
