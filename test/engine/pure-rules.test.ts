import { describe, expect, it } from 'vitest';
import type { Incentive } from '../../src/api/schemas/incentive.js';
import type { HistoryPoint } from '../../src/core/ports.js';
import { crossedMilestones, defaultMilestones } from '../../src/domain/milestones.js';
import { diffRewards } from '../../src/engine/events/reward-diff.js';
import { planIntervals } from '../../src/engine/schedule/budget-plan.js';
import { appendHistory, defaultHistoryOptions } from '../../src/engine/state/history.js';

describe('milestones', () => {
  const base = { goal: 10_000, allOrNothing: true, milestones: defaultMilestones };

  it('announces each crossed percentage once and never again after a dip', () => {
    const first = crossedMilestones({ ...base, funding: 2_600, done: [] });
    expect(first.announce).toEqual([{ percent: 25, goalReached: false }]);
    const dip = crossedMilestones({ ...base, funding: 2_400, done: first.done });
    expect(dip.announce).toEqual([]);
    const again = crossedMilestones({ ...base, funding: 2_600, done: dip.done });
    expect(again.announce).toEqual([]);
  });

  it('reports goal reached for all-or-nothing projects, also when jumping past 100%', () => {
    expect(crossedMilestones({ ...base, funding: 10_000, done: [25, 50, 75] }).announce).toEqual([
      { percent: 100, goalReached: true },
    ]);
    expect(crossedMilestones({ ...base, funding: 15_500, done: [25, 50, 75] }).announce).toEqual([
      { percent: 100, goalReached: true },
      { percent: 150, goalReached: false },
    ]);
  });

  it('over 100% milestones (150, 200) are announced; a flexible project has no "goal reached"', () => {
    const flexible = { ...base, allOrNothing: false };
    expect(
      crossedMilestones({ ...flexible, funding: 20_000, done: [25, 50, 75, 100, 150] }).announce,
    ).toEqual([{ percent: 200, goalReached: false }]);
    expect(crossedMilestones({ ...flexible, funding: 10_000, done: [25, 50, 75] }).announce).toEqual([
      { percent: 100, goalReached: false },
    ]);
  });

  it('configurable percentages; all-or-nothing always includes 100', () => {
    const r = crossedMilestones({ ...base, milestones: [10], funding: 10_000, done: [] });
    expect(r.done).toEqual([10, 100]);
  });
});

function reward(over: Partial<Incentive> = {}): Incentive {
  return {
    id: 1,
    title: 'Mug',
    description: '<p>A mug</p>',
    price: 25,
    quantity_total: 10,
    quantity_remaining: 2,
    quantity_sold: 8,
    status: 'enabled',
    address_required: false,
    is_available: true,
    is_unlocked: true,
    hidden_until_goal_reached: false,
    is_in_stock: false,
    url: 'https://crowdfunding.example/p/rewards/1',
    gallery_images: [],
    ...over,
  };
}

describe('reward transitions', () => {
  it('a visible reward selling out is announced; a restock and second sell-out is a new event', () => {
    const base = diffRewards(null, [reward()]);
    expect(base.transitions).toEqual([]);
    const sold = diffRewards(base.flags, [reward({ quantity_remaining: 0, is_available: false })]);
    const counted = (d: typeof sold) => d.transitions.map((t) => [t.kind, 'count' in t ? t.count : null]);
    expect(counted(sold)).toEqual([['sold-out', 1]]);
    const restock = diffRewards(sold.flags, [reward()]);
    expect(counted(restock)).toEqual([['restocked', 1]]);
    const again = diffRewards(restock.flags, [reward({ quantity_remaining: 0, is_available: false })]);
    expect(counted(again)).toEqual([['sold-out', 2]]);
  });

  it('hidden rewards are never announced (sold out or unlocked)', () => {
    const hidden = { status: 'hidden' };
    const base = diffRewards(null, [reward({ ...hidden, is_unlocked: false })]);
    const after = diffRewards(base.flags, [reward({ ...hidden, is_unlocked: true, is_available: false })]);
    expect(after.transitions).toEqual([]);
  });

  it('unlock of a reward hidden until the goal is announced once it becomes visible', () => {
    const secret = { hidden_until_goal_reached: true };
    const base = diffRewards(null, [reward({ ...secret, is_unlocked: false })]);
    const unlocked = diffRewards(base.flags, [reward({ ...secret, is_unlocked: true })]);
    expect(unlocked.transitions.map((t) => t.kind)).toEqual(['unlocked']);
  });
});

describe('budget plan', () => {
  const now = Date.UTC(2026, 0, 1);
  const budget = { dayLimit: 10_000, dayRemaining: 10_000, dayResetAt: now + 86_400_000, minuteLimit: 120 };
  const demands = [
    { feed: 'fundings', weight: 8, targetIntervalMs: 5_000, requestsPerPoll: 1 },
    { feed: 'wall', weight: 2, targetIntervalMs: 5_000, requestsPerPoll: 1 },
  ];

  it('keeps the reserve: planned spending until the reset stays within the day budget minus 15%', () => {
    const plan = planIntervals({ budget, now, reserveShare: 0.15, demands });
    const perDay = [...plan.values()].reduce((sum, ms) => sum + 86_400_000 / ms, 0);
    expect(perDay).toBeLessThanOrEqual(8_500 + 1);
    expect(perDay).toBeGreaterThan(8_000);
    expect(plan.get('fundings')).toBeLessThan(plan.get('wall') ?? 0);
  });

  it('derives intervals from the budget: a bigger plan gives proportionally shorter ones, down to the floor', () => {
    const floor = demands.map((d) => ({ ...d, targetIntervalMs: 1_000 }));
    const pro = planIntervals({ budget, now, reserveShare: 0.15, demands: floor });
    const premium = planIntervals({
      budget: { dayLimit: 50_000, dayRemaining: 50_000, dayResetAt: now + 86_400_000, minuteLimit: 300 },
      now,
      reserveShare: 0.15,
      demands: floor,
    });
    // 5x the day budget: 5x the rate (no cap at a wanted interval).
    expect((pro.get('fundings') ?? 0) / (premium.get('fundings') ?? 1)).toBeCloseTo(5, 5);
    // The whole spendable budget is planned, not a fixed figure.
    const perDay = [...premium.values()].reduce((sum, ms) => sum + 86_400_000 / ms, 0);
    expect(perDay).toBeCloseTo(42_500, 0);
    const huge = planIntervals({
      budget: {
        dayLimit: 10_000_000,
        dayRemaining: 10_000_000,
        dayResetAt: now + 86_400_000,
        minuteLimit: 100_000,
      },
      now,
      reserveShare: 0.15,
      demands: floor,
    });
    expect(huge.get('fundings')).toBe(1_000);
    expect(huge.get('wall')).toBe(1_000);
  });

  it('holds the whole plan to maxRatePerMs when the budget would allow more', () => {
    const floor = demands.map((d) => ({ ...d, targetIntervalMs: 1_000 }));
    const lateBudget = { ...budget, dayResetAt: now + 3_600_000 }; // the day's remainder in one hour
    const free = planIntervals({ budget: lateBudget, now, reserveShare: 0.15, demands: floor });
    const capped = planIntervals({
      budget: lateBudget,
      now,
      reserveShare: 0.15,
      demands: floor,
      maxRatePerMs: 0.2 / 1000,
    });
    const perSecond = (plan: Map<string, number>) =>
      [...plan.values()].reduce((sum, ms) => sum + 1000 / ms, 0);
    expect(perSecond(free)).toBeCloseTo((120 * 0.85) / 60, 5); // the key's minute limit binds
    expect(perSecond(capped)).toBeCloseTo(0.2, 5);
    // The ceiling keeps the weights: fundings still polled four times as often as the wall.
    expect((capped.get('wall') ?? 0) / (capped.get('fundings') ?? 1)).toBeCloseTo(4, 5);
  });

  it('waits for the reset when the budget is spent down to the reserve', () => {
    const spent = planIntervals({
      budget: { ...budget, dayRemaining: 1_400 },
      now,
      reserveShare: 0.15,
      demands,
    });
    expect(spent.get('fundings')).toBe(86_400_000);
  });

  it('spreads the remaining budget over the time left until the reset', () => {
    const late = planIntervals({
      budget: { ...budget, dayRemaining: 2_500, dayResetAt: now + 3_600_000 },
      now,
      reserveShare: 0.15,
      demands,
    });
    const perHour = [...late.values()].reduce((sum, ms) => sum + 3_600_000 / ms, 0);
    expect(perHour).toBeLessThanOrEqual(1_000 + 1);
  });
});

describe('history', () => {
  const point = (at: number, funding: number) => ({
    at,
    funding,
    supporters: funding / 10,
    rewardsSold: { '1': 1 },
  });

  it('adds a point only when something changed', () => {
    const one = appendHistory([], point(0, 100)) ?? [];
    expect(appendHistory(one, point(60_000, 100))).toBeNull();
    expect(appendHistory(one, point(60_000, 110))).toHaveLength(2);
  });

  it('downsamples points older than a day to one per 15 minutes and caps the series', () => {
    let series: HistoryPoint[] = [];
    for (let i = 0; i < 3 * 24 * 60; i++)
      series = appendHistory(series, point(i * 60_000, i), defaultHistoryOptions) ?? series;
    const dayAgo = 3 * 24 * 60 * 60_000 - 24 * 3_600_000;
    const old = series.filter((p) => p.at < dayAgo);
    expect(old.length).toBeLessThanOrEqual(2 * 24 * 4 + 1);
    expect(series.length).toBeLessThan(24 * 60 + 2 * 24 * 4 + 2);
    const capped = appendHistory(series, point(10 ** 10, 1), { ...defaultHistoryOptions, maxPoints: 50 });
    expect(capped).toHaveLength(50);
  });
});
