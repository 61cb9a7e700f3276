import { describe, expect, it } from 'vitest';
import { planIntervals, TARGETS_MAX_SHARE } from '../../../src/engine/schedule/budget-plan.js';
import { DecayingRate } from '../../../src/engine/schedule/decaying-rate.js';
import {
  feedP95Targets,
  targetIntervalMs,
  UNIFORM_P95_SHARE,
  uniformPollerPlan,
} from '../../../src/engine/schedule/latency-bound.js';

const day = 86_400_000;
const now = Date.UTC(2026, 2, 2, 0, 0, 0);
const pro = { dayLimit: 10_000, dayRemaining: 10_000, dayResetAt: now + day, minuteLimit: 120 };
const perDay = (intervalMs: number | undefined, requestsPerPoll = 1) =>
  intervalMs === undefined ? 0 : (day / intervalMs) * requestsPerPoll;

describe('the plan meets the latency targets first and gives the rest to the supporters', () => {
  const demands = [
    { feed: 'fundings', weight: 8, targetIntervalMs: 1_000, requestsPerPoll: 1 },
    {
      feed: 'wall',
      weight: 2,
      targetIntervalMs: targetIntervalMs('wall') ?? 0,
      requestsPerPoll: 1,
      meetsTarget: true,
    },
    {
      feed: 'blog',
      weight: 1,
      targetIntervalMs: targetIntervalMs('blog') ?? 0,
      requestsPerPoll: 2,
      meetsTarget: true,
    },
  ];

  it('grants the targets exactly and spends every other request of the day on fundings', () => {
    const plan = planIntervals({ budget: pro, now, reserveShare: 0.15, demands });
    expect(plan.get('wall')).toBeCloseTo(targetIntervalMs('wall') ?? 0, 6);
    expect(plan.get('blog')).toBeCloseTo(targetIntervalMs('blog') ?? 0, 6);
    const total = perDay(plan.get('fundings')) + perDay(plan.get('wall')) + perDay(plan.get('blog'), 2);
    expect(total).toBeCloseTo(8_500, 3);
  });

  it('shares by weight when the targets would take more than TARGETS_MAX_SHARE of the capacity', () => {
    const scarce = { ...pro, dayLimit: 2_000, dayRemaining: 2_000 };
    const plan = planIntervals({ budget: scarce, now, reserveShare: 0.15, demands });
    const wall = perDay(plan.get('wall'));
    expect(wall).toBeLessThan(day / (targetIntervalMs('wall') ?? 1));
    expect(perDay(plan.get('fundings')) / wall).toBeCloseTo(4, 5);
    expect(TARGETS_MAX_SHARE).toBeLessThan(1);
  });

  it('a plan bigger than the supporters can use: the wall and blog go faster than their targets, down to 1 s', () => {
    const big = { dayLimit: 1_000_000, dayRemaining: 1_000_000, dayResetAt: now + day, minuteLimit: 10_000 };
    const withFloors = [
      { feed: 'fundings', weight: 8, targetIntervalMs: 1_000, requestsPerPoll: 1 },
      {
        feed: 'wall',
        weight: 2,
        targetIntervalMs: 1_000,
        requestsPerPoll: 1,
        targetMs: targetIntervalMs('wall') ?? 0,
      },
      {
        feed: 'blog',
        weight: 1,
        targetIntervalMs: 1_000,
        requestsPerPoll: 2,
        targetMs: targetIntervalMs('blog') ?? 0,
      },
    ];
    const plan = planIntervals({ budget: big, now, reserveShare: 0.15, demands: withFloors });
    expect([plan.get('fundings'), plan.get('wall'), plan.get('blog')]).toEqual([1_000, 1_000, 1_000]);
    // On Pro the same demands meet the targets exactly and give every other request to the supporters.
    const onPro = planIntervals({ budget: pro, now, reserveShare: 0.15, demands: withFloors });
    expect(onPro.get('wall')).toBeCloseTo(targetIntervalMs('wall') ?? 0, 6);
    expect(onPro.get('blog')).toBeCloseTo(targetIntervalMs('blog') ?? 0, 6);
  });

  it('never plans more than the day budget less the reserve, whatever the targets', () => {
    for (const dayLimit of [1_000, 10_000, 50_000, 100_000]) {
      const budget = { ...pro, dayLimit, dayRemaining: dayLimit, minuteLimit: dayLimit / 80 };
      const plan = planIntervals({ budget, now, reserveShare: 0.15, demands });
      const total = perDay(plan.get('fundings')) + perDay(plan.get('wall')) + perDay(plan.get('blog'), 2);
      expect(total).toBeLessThanOrEqual(0.85 * dayLimit + 1e-6);
    }
  });
});

describe('the bound of a uniform poller (docs/latency-bound.md)', () => {
  it('gives Pro 13.0 s, Premium 2.04 s, Enterprise 0.99 s with the public budget on the project', () => {
    const bound = (key: number) =>
      uniformPollerPlan({ keyRequests: key, publicRequests: 850, periodMs: day }).fundingsP95Ms;
    expect(bound(8_500)).toBeCloseTo(13_005, -1);
    expect(bound(42_500)).toBeCloseTo(2_036, -1);
    expect(bound(85_000)).toBeCloseTo(991, -1);
  });

  it('meets the wall and blog targets exactly, and the engine plans them a little faster', () => {
    const split = uniformPollerPlan({ keyRequests: 8_500, publicRequests: 850, periodMs: day });
    expect(UNIFORM_P95_SHARE * split.wallIntervalMs).toBeCloseTo(feedP95Targets.wall ?? 0, 6);
    expect(UNIFORM_P95_SHARE * split.blogIntervalMs).toBeCloseTo(feedP95Targets.blog ?? 0, 6);
    expect(targetIntervalMs('wall')).toBeLessThan(split.wallIntervalMs);
    expect(targetIntervalMs('fundings')).toBeUndefined();
  });
});

describe('one-off requests (sweeps, fills, searches) are counted in the plan', () => {
  const demands = [{ feed: 'fundings', weight: 8, targetIntervalMs: 1_000, requestsPerPoll: 1 }];

  it('takes their rate off the capacity, so the polls and the one-offs together keep to the budget', () => {
    const overheadPerMs = 1_000 / day; // a thousand one-off requests a day
    const plan = planIntervals({ budget: pro, now, reserveShare: 0.15, demands, overheadPerMs });
    expect(perDay(plan.get('fundings')) + 1_000).toBeCloseTo(8_500, 3);
  });

  it('takes at most half of it: a burst of searches slows the polls, never stops them', () => {
    const plan = planIntervals({ budget: pro, now, reserveShare: 0.15, demands, overheadPerMs: 1 });
    expect(perDay(plan.get('fundings'))).toBeCloseTo(4_250, 3);
  });
});

describe('a decaying rate', () => {
  it('reads a steady rate after a few time constants and forgets a burst', () => {
    const rate = new DecayingRate(60_000, now);
    for (let t = now; t <= now + 10 * 60_000; t += 1_000) rate.record(t, 1);
    expect(rate.rate(now + 10 * 60_000) * 1_000).toBeCloseTo(1, 1);
    expect(rate.rate(now + 20 * 60_000) * 1_000).toBeLessThan(0.001);
  });
});
