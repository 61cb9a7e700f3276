/**
 * The latency targets of the feeds that have one, and what a uniform poller can reach
 * within a budget while meeting them (docs/latency-bound.md derives it). Pure arithmetic:
 * the bench computes `boundP95Ms` and the fair uniform poller's intervals here, and the
 * planner reads the same targets, so the three cannot drift apart.
 */

import type { FeedName } from '../../domain/feeds.js';

/** Wall posts within 60 s and blog posts within 300 s, at the 95th percentile (issue 22). */
export const latencyTargets = { wallP95Ms: 60_000, blogP95Ms: 300_000 } as const;

/**
 * The p95 each feed is read for, where it has one: the wall and blog their targets; the rewards
 * list (no target of its own) as often as a blog list. Fundings and the project have none here:
 * fundings get everything left, the project is read mostly on the public budget.
 */
export const feedP95Targets: Readonly<Partial<Record<FeedName, number>>> = {
  wall: latencyTargets.wallP95Ms,
  blog: latencyTargets.blogP95Ms,
  incentives: latencyTargets.blogP95Ms,
};

/**
 * The engine plans a targeted feed at this share of the interval that meets its target exactly:
 * its polls carry ±5% jitter and a failed poll waits for a retry, and with a handful of blog posts
 * in a day their p95 is their slowest one, so an exact plan would end just over the target.
 */
export const TARGET_MARGIN = 0.9;

/** The interval the engine plans for `feed`'s latency target, or undefined when it has none. */
export function targetIntervalMs(feed: FeedName): number | undefined {
  const p95 = feedP95Targets[feed];
  return p95 === undefined ? undefined : (TARGET_MARGIN * p95) / UNIFORM_P95_SHARE;
}

/**
 * A poller reading a list every T ms finds an entry that arrived at a random moment
 * after a wait uniform in [0, T]: its p95 is 0.95 T (its mean T / 2).
 */
export const UNIFORM_P95_SHARE = 0.95;

/** The intervals of a uniform first-page poller and the supporter p95 they give. */
export interface UniformPollerPlan {
  readonly fundingsIntervalMs: number;
  readonly wallIntervalMs: number;
  /** Each of the two blog lists (text and story). */
  readonly blogIntervalMs: number;
  /** The rewards list: no target of its own, read as often as a blog list. */
  readonly incentivesIntervalMs: number;
  readonly projectIntervalMs: number;
  /** Whether the project is read on the public (per-IP) budget rather than the key's. */
  readonly projectOnPublic: boolean;
  /** 0.95 × the fundings interval (Infinity when the key has nothing left for fundings). */
  readonly fundingsP95Ms: number;
}

/**
 * Splits a budget the way the best uniform poller does: the wall and blog lists get the
 * longest interval that meets their targets, the rewards list the blog's, the project is
 * read on the public budget (the spec lets a `started` project be read without a
 * credential), and every key request left goes to the fundings list at one fixed interval.
 *
 * @param keyRequests requests the key may spend over `periodMs`
 * @param publicRequests requests the public (per-IP) budget may spend over `periodMs`
 */
export function uniformPollerPlan(input: {
  readonly keyRequests: number;
  readonly publicRequests: number;
  readonly periodMs: number;
}): UniformPollerPlan {
  const { keyRequests, publicRequests, periodMs } = input;
  const wallIntervalMs = (feedP95Targets.wall ?? latencyTargets.wallP95Ms) / UNIFORM_P95_SHARE;
  const blogIntervalMs = (feedP95Targets.blog ?? latencyTargets.blogP95Ms) / UNIFORM_P95_SHARE;
  const projectOnPublic = publicRequests >= 1;
  const projectIntervalMs = projectOnPublic ? periodMs / publicRequests : blogIntervalMs;
  // Wall, two blog lists, rewards (and the project when no public budget reads it).
  const fixed =
    periodMs / wallIntervalMs +
    (3 * periodMs) / blogIntervalMs +
    (projectOnPublic ? 0 : periodMs / projectIntervalMs);
  const forFundings = keyRequests - fixed;
  const fundingsIntervalMs = forFundings > 0 ? periodMs / forFundings : Number.POSITIVE_INFINITY;
  return {
    fundingsIntervalMs,
    wallIntervalMs,
    blogIntervalMs,
    incentivesIntervalMs: blogIntervalMs,
    projectIntervalMs,
    projectOnPublic,
    fundingsP95Ms: UNIFORM_P95_SHARE * fundingsIntervalMs,
  };
}
