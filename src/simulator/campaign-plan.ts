/**
 * Campaign plans: the timed actions of a campaign day (supports, failures, wall
 * and blog posts, subscriptions, status changes) and the planner that draws them
 * with a realistic daily rhythm and bursts. Pure data from a seeded random;
 * separate from scenario.ts, which plays a plan against a project.
 */
import { pick, type Random, randomInt } from '../lib/random.js';
import { createNameGenerator } from './names.js';

/**
 * Shapes of a campaign day:
 * - `launch-day`: a heavy launch hour decaying over the first hours, evening peaks, quiet nights;
 * - `steady`: only the daily rhythm;
 * - `final-day`: the daily rhythm plus a rush towards the end;
 * - `flat`: the same rate all day and no bursts (uniform arrivals: the basis of docs/latency-bound.md).
 * The other profiles add a few short bursts (a post shared widely: dozens of supporters within two minutes).
 */
export type CampaignProfile = 'launch-day' | 'steady' | 'final-day' | 'flat';

export interface PlanCampaignDayOptions {
  /** Epoch ms of the first moment of the plan. */
  readonly start: number;
  readonly random: Random;
  /** Default 24 h. */
  readonly durationMs?: number;
  /** Default 1500. */
  readonly supporters?: number;
  /** Default 200. */
  readonly wallPosts?: number;
  /** Default 3. */
  readonly blogPosts?: number;
  /** Supports that fail later in the day (before payoff). Default 1% of the supporters. */
  readonly failures?: number;
  /** Default 20% of the supporters. */
  readonly subscribers?: number;
  /** Default `launch-day`. */
  readonly profile?: CampaignProfile;
  /**
   * Epoch ms of the launch spike of `launch-day` (default `start`). A plan of a whole UTC day
   * launching at 07:00 starts at midnight with the daily rhythm only and spikes at the launch.
   */
  readonly launchAt?: number;
  /** Share (0..1) of names and messages replaced by hostile text. Default 0. */
  readonly hostileRate?: number;
  /** How the plan ends: nothing (default), status `successful`, or successful and paid out. */
  readonly finish?: 'none' | 'successful' | 'payoff';
}

interface ActionBase {
  /** Epoch ms when the action is due. */
  readonly at: number;
}

export type CampaignAction =
  | (ActionBase & {
      readonly kind: 'support';
      /** 0-based number of the support in the plan; `fail-support` refers to it. */
      readonly seq: number;
      readonly displayName: string;
      readonly firstName: string;
      readonly lastName: string;
      readonly city: string;
      readonly country: string;
      /** Whether the backer picks a reward (among those orderable when applied). */
      readonly withReward: boolean;
      /** Which orderable reward, as a fraction of the list: the choice depends on the state when applied. */
      readonly rewardPick: number;
      readonly quantity: number;
      /** Amount on top of the reward price, or the whole amount without a reward. */
      readonly extraAmount: number;
    })
  | (ActionBase & { readonly kind: 'fail-support'; readonly supportSeq: number })
  | (ActionBase & { readonly kind: 'wall-post'; readonly authorName: string; readonly message: string })
  | (ActionBase & {
      readonly kind: 'blog-post';
      readonly title: string;
      readonly text: string;
      readonly type: 'text' | 'story';
      readonly supporterOnly: boolean;
    })
  | (ActionBase & {
      readonly kind: 'subscribe';
      readonly withAccount: boolean;
      readonly newsSubscribed: boolean;
    })
  | (ActionBase & { readonly kind: 'status'; readonly status: string })
  | (ActionBase & { readonly kind: 'payoff' });

export interface CampaignPlan {
  readonly start: number;
  readonly end: number;
  readonly profile: CampaignProfile;
  /** Sorted by `at` (stable). */
  readonly actions: readonly CampaignAction[];
  readonly counts: {
    readonly supporters: number;
    readonly failures: number;
    readonly wallPosts: number;
    readonly blogPosts: number;
    readonly subscribers: number;
  };
}

const minute = 60_000;
const hour = 60 * minute;
/** Relative activity by local hour (CET): quiet nights, lunch bump, evening peak. */
const hourWeights = [
  0.4, 0.2, 0.1, 0.08, 0.08, 0.15, 0.4, 0.8, 1, 1.1, 1.1, 1.2, 1.4, 1.3, 1.1, 1.1, 1.2, 1.5, 2, 2.6, 2.8, 2.4,
  1.5, 0.8,
];
const freeAmounts = [5, 10, 10, 20, 25, 50, 50, 100, 250];

/**
 * Cumulative weights per minute of the plan, for inverse-CDF sampling (and for the bench's oracle
 * schedules, which know the curve the supporters are drawn from: bench/oracle-schedules.ts).
 */
export function minuteDistribution(
  start: number,
  durationMs: number,
  profile: CampaignProfile,
  launchAt: number,
): Float64Array {
  const bins = Math.max(1, Math.ceil(durationMs / minute));
  const cumulative = new Float64Array(bins);
  let sum = 0;
  for (let i = 0; i < bins; i++) {
    const t = start + i * minute;
    const localHour = (new Date(t).getUTCHours() + 1) % 24;
    let weight = profile === 'flat' ? 1 : (hourWeights[localHour] ?? 1);
    if (profile === 'launch-day' && t >= launchAt)
      weight *= 1 + 14 * Math.exp(-(t - launchAt) / (45 * minute));
    if (profile === 'final-day') weight *= 1 + 10 * Math.exp(-(start + durationMs - t) / (90 * minute));
    sum += weight;
    cumulative[i] = sum;
  }
  return cumulative;
}

function sampleTime(random: Random, start: number, durationMs: number, cumulative: Float64Array): number {
  const total = cumulative[cumulative.length - 1] ?? 1;
  const target = random.next() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(start + durationMs - 1, start + lo * minute + Math.floor(random.next() * minute));
}

/**
 * Plans a campaign day as timed actions with realistic bursts. The counts are
 * exact: `supporters` supports, `failures` of them failing later, and so on.
 * Deterministic for a given random.
 */
export function planCampaignDay(options: PlanCampaignDayOptions): CampaignPlan {
  const { start, random } = options;
  const durationMs = options.durationMs ?? 24 * hour;
  const end = start + durationMs;
  const profile = options.profile ?? 'launch-day';
  const supporters = options.supporters ?? 1500;
  const wallPosts = options.wallPosts ?? 200;
  const blogPosts = options.blogPosts ?? 3;
  const failures = Math.min(supporters, options.failures ?? Math.round(supporters * 0.01));
  const subscribers = options.subscribers ?? Math.round(supporters * 0.2);
  const names = createNameGenerator(
    random,
    options.hostileRate === undefined ? {} : { hostileRate: options.hostileRate },
  );
  const cumulative = minuteDistribution(start, durationMs, profile, options.launchAt ?? start);
  const sample = () => sampleTime(random, start, durationMs, cumulative);
  const actions: CampaignAction[] = [];

  const launchAt = options.launchAt ?? start;
  if (profile === 'launch-day') actions.push({ at: launchAt, kind: 'status', status: 'active' });

  // Supports: ~15% in a few tight bursts, the rest along the day's curve.
  const burstCenters = Array.from({ length: Math.max(1, Math.round(durationMs / (3 * hour))) }, sample);
  const supportTimes: number[] = [];
  for (let i = 0; i < supporters; i++) {
    const inBurst = random.next() < (profile === 'flat' ? 0 : 0.15);
    const at = inBurst
      ? Math.min(end - 1, pick(random, burstCenters) + Math.floor(random.next() * 2 * minute))
      : sample();
    supportTimes.push(at);
  }
  supportTimes.sort((a, b) => a - b);
  const supportNames: string[] = [];
  supportTimes.forEach((at, seq) => {
    const person = names.person();
    supportNames.push(person.displayName);
    const withReward = random.next() < 0.8;
    actions.push({
      at,
      kind: 'support',
      seq,
      displayName: person.displayName,
      firstName: person.firstName,
      lastName: person.lastName,
      city: person.city,
      country: person.country,
      withReward,
      rewardPick: random.next(),
      quantity: random.next() < 0.9 ? 1 : 2,
      extraAmount: withReward
        ? random.next() < 0.3
          ? randomInt(random, 1, 50)
          : 0
        : pick(random, freeAmounts),
    });
  });

  // Failures: distinct supports failing 10 minutes to 6 hours later, always within the plan.
  const failing = new Set<number>();
  while (failing.size < failures) failing.add(randomInt(random, 0, supporters - 1));
  for (const seq of failing) {
    const supportAt = supportTimes[seq] ?? start;
    const at = Math.min(end - 1, supportAt + randomInt(random, 10 * minute, 6 * hour));
    actions.push({ at: Math.max(at, supportAt), kind: 'fail-support', supportSeq: seq });
  }

  // Wall posts follow the same rhythm; half of them by someone who already supported.
  for (let i = 0; i < wallPosts; i++) {
    const at = sample();
    let authorName = names.person().displayName;
    const earlier = supportTimes.findLastIndex((t) => t <= at);
    if (earlier >= 0 && random.next() < 0.5)
      authorName = supportNames[randomInt(random, 0, earlier)] ?? authorName;
    actions.push({ at, kind: 'wall-post', authorName, message: names.wallMessage() });
  }

  // Blog posts: one right after launch, the rest spread over the day; every third is supporter-only.
  for (let i = 0; i < blogPosts; i++) {
    const at =
      i === 0
        ? launchAt + randomInt(random, 5 * minute, 20 * minute)
        : start + Math.floor((durationMs * i) / blogPosts);
    const post = names.blogPost(i);
    actions.push({
      at: Math.min(end - 1, at),
      kind: 'blog-post',
      ...post,
      type: i % 2 === 1 ? 'story' : 'text',
      supporterOnly: i % 3 === 2,
    });
  }

  for (let i = 0; i < subscribers; i++) {
    actions.push({
      at: sample(),
      kind: 'subscribe',
      withAccount: random.next() < 0.9,
      newsSubscribed: random.next() < 0.8,
    });
  }

  const finish = options.finish ?? 'none';
  if (finish !== 'none') actions.push({ at: end - 1, kind: 'status', status: 'successful' });
  if (finish === 'payoff') actions.push({ at: end - 1, kind: 'payoff' });

  // Stable sort keeps a support before its failure at the same millisecond and status before payoff.
  actions.sort((a, b) => a.at - b.at);
  return {
    start,
    end,
    profile,
    actions,
    counts: { supporters, failures, wallPosts, blogPosts, subscribers },
  };
}
