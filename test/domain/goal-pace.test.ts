import { describe, expect, it } from 'vitest';
import { type GoalPaceInput, judgeGoalPace, type PaceWatchState } from '../../src/domain/goal-pace.js';
import type { HistoryPoint } from '../../src/domain/read-model.js';

const hour = 3_600_000;
const day = 24 * hour;
const now = Date.UTC(2026, 10, 29, 12);
const goal = 10_000;

/** A snapshot `hoursAgo` before now (the engine takes one on every change). */
const point = (hoursAgo: number, funding: number, supporters: number): HistoryPoint => ({
  at: now - hoursAgo * hour,
  funding,
  supporters,
  rewardsSold: {},
});

/** Funding `start` 30 hours ago, `middle` at the window's half (12 h ago), `funding` now; supporters likewise. */
function input(
  start: number,
  middle: number,
  funding: number,
  supporters: [number, number, number] = [10, 20, 30],
  daysLeft = 10,
): GoalPaceInput {
  return {
    history: [point(30, start, supporters[0]), point(12, middle, supporters[1])],
    now,
    funding,
    supporters: supporters[2],
    goal,
    deadline: now + daysLeft * day,
  };
}

const judgedAs = (previous: PaceWatchState | undefined, figures: GoalPaceInput) => {
  const judgement = judgeGoalPace(figures, previous);
  if (judgement.kind !== 'judged') throw new Error(`expected a verdict, got ${judgement.why}`);
  return judgement;
};

/** A watch that judged the goal (100 %) behind, ten days before the end, after `alerts` alerts. */
const behindOnGoal = (alerts: number): PaceWatchState => ({
  targetPercent: 100,
  deadline: now + 10 * day,
  verdict: 'behind',
  alerts,
});

describe('judgeGoalPace: the goal-pace alerts’ one rule', () => {
  it('stores the first verdict silently and alerts once on a crossing, with the range of the two half-windows', () => {
    // €1,000 a day with €6,000 needed in 10 days: 1,000 × 10 / 6,000 = 1.67 → on track, first verdict: silent.
    const first = judgedAs(undefined, input(3_000, 3_500, 4_000));
    expect(first.alert).toBeUndefined();
    expect(first.state).toEqual({
      targetPercent: 100,
      deadline: now + 10 * day,
      verdict: 'on-track',
      alerts: 0,
    });
    // The pace drops to €100 a day: behind, the channel's first alert.
    const second = judgedAs(first.state, input(3_900, 3_950, 4_000));
    expect(second.alert).toBe('behind');
    expect(second.state.alerts).toBe(1);
    // Each half brought €50 in 12 h: €100 a day × 10 days on top of €4,000.
    expect(second.reading.range).toEqual({ low: 5_000, high: 5_000 });
    expect(second.reading.neededPerDay).toBeCloseTo(600);
    // Judged again with the same figures: no second alert.
    expect(judgedAs(second.state, input(3_900, 3_950, 4_000)).alert).toBeUndefined();
  });

  it('gives the range of the slower and the faster half, never one figure from an uneven window', () => {
    // Nothing in the first half, €1,200 in the last 12 h: €0–€2,400 a day.
    const { reading } = judgedAs(undefined, input(3_000, 3_000, 4_200));
    expect(reading.range.low).toBe(4_200);
    expect(reading.range.high).toBeCloseTo(4_200 + 2_400 * 10);
  });

  it('does not flap: between 90 % and 110 % of what is needed the verdict stays', () => {
    const behind = behindOnGoal(3);
    // €620 a day × 10 = 6,200 of 6,000 needed: 103 %, not yet 110 %.
    expect(judgedAs(behind, input(3_380, 3_690, 4_000)).alert).toBeUndefined();
    // €680 a day: 113 % → on track.
    const up = judgedAs(behind, input(3_320, 3_660, 4_000));
    expect(up.alert).toBe('on-track');
    expect(up.state.alerts).toBe(4);
    // Back to €560 a day (93 %): still on track; €520 (87 %): behind.
    expect(judgedAs(up.state, input(3_440, 3_720, 4_000)).alert).toBeUndefined();
    expect(judgedAs(up.state, input(3_480, 3_740, 4_000)).alert).toBe('behind');
  });

  it('says nothing before a full window of history, and never "on track" from fewer supports than the minimum', () => {
    const young = { ...input(3_000, 3_500, 4_000), history: [point(10, 3_500, 20)] };
    expect(judgeGoalPace(young, undefined)).toEqual({ kind: 'silent', why: 'short-history' });
    // Two supports of €500 each would be "on track": too few to trust.
    expect(judgeGoalPace(input(3_000, 3_500, 4_000, [10, 11, 12]), undefined)).toEqual({
      kind: 'silent',
      why: 'few-supporters',
    });
    // A campaign that stalls is behind whatever the count: that is a verdict, not thin data.
    expect(judgedAs(undefined, input(4_000, 4_000, 4_000, [10, 10, 10])).state.verdict).toBe('behind');
  });

  it('after the goal measures against the next milestone; a new target or end starts over silently', () => {
    const before = behindOnGoal(1);
    const after = judgedAs(before, input(9_000, 9_800, 10_400));
    expect(after.reading.target).toEqual({ kind: 'milestone', percent: 150 });
    expect(after.alert).toBeUndefined();
    expect(after.state).toMatchObject({ targetPercent: 150, alerts: 1 });
    const moved = judgedAs(
      { ...after.state, verdict: 'behind' },
      { ...input(9_000, 9_800, 10_400, undefined, 20) },
    );
    expect(moved.alert).toBeUndefined();
  });

  it('is silent without a goal and in the last hour before the end', () => {
    expect(judgeGoalPace({ ...input(1, 2, 3), goal: 0 }, undefined)).toEqual({
      kind: 'silent',
      why: 'no-goal',
    });
    expect(judgeGoalPace({ ...input(1, 2, 3), deadline: now + hour / 2 }, undefined)).toEqual({
      kind: 'silent',
      why: 'ended',
    });
  });
});
