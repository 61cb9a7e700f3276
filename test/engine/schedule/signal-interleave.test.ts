import { describe, expect, it } from 'vitest';
import {
  FULL_POLLS_FROM_ARRIVALS_PER_READ,
  nextPollInWindow,
  openSignalWindow,
  SignalPolls,
} from '../../../src/engine/schedule/signal-interleave.js';

const perMs = (perReadAt: number, readMs: number) => perReadAt / readMs;

describe('the key polls between the change signal reads', () => {
  const U = 18_000;

  it('a busy list gets U/K polls a window, spread evenly between the reads; the fraction carries', () => {
    const busy = perMs(1, U);
    const first = openSignalWindow(undefined, { at: 0, intervalMs: U }, 12_000, busy);
    expect(first).toMatchObject({ polls: 1 });
    expect(first.credit).toBeCloseTo(0.5);
    expect(nextPollInWindow(first, 0)).toBe(9_000);
    const second = openSignalWindow(first, { at: U, intervalMs: U }, 12_000, busy);
    expect(second.polls).toBe(2);
    expect(second.credit).toBeCloseTo(0);
    expect(nextPollInWindow(second, U)).toBe(U + 6_000);
    expect(nextPollInWindow(second, U + 6_000)).toBe(U + 12_000);
    // No slot left: the first of the next window, which the next read re-plans.
    expect(nextPollInWindow(second, U + 12_000)).toBe(2 * U + 6_000);
  });

  it('a quiet list thins the polls in proportion to its supporters per read', () => {
    const quiet = perMs(FULL_POLLS_FROM_ARRIVALS_PER_READ / 4, U);
    let window = openSignalWindow(undefined, { at: 0, intervalMs: U }, 6_000, quiet);
    let polls = window.polls;
    for (let i = 1; i < 40; i++) {
      window = openSignalWindow(window, { at: i * U, intervalMs: U }, 6_000, quiet);
      polls += window.polls;
    }
    // A quarter of the 3 polls a window the plan would give.
    expect(polls).toBe(30);
    const none = openSignalWindow(undefined, { at: 0, intervalMs: U }, 6_000, 0);
    expect(none.polls).toBe(0);
    expect(nextPollInWindow(none, 0)).toBe(2 * U);
  });

  it('a silent signal is not counted on: after three of its intervals the key keeps its own schedule', () => {
    const window = openSignalWindow(undefined, { at: 0, intervalMs: U }, 6_000, perMs(1, U));
    expect(nextPollInWindow(window, 3 * U)).toBeDefined();
    expect(nextPollInWindow(window, 3 * U + 1)).toBeUndefined();
    expect(nextPollInWindow(undefined, 0)).toBeUndefined();
  });
});

describe('the polls a change signal asks for outside the plan', () => {
  const day = 86_400_000;
  const reset = 10 * day;

  it('are averaged over the budget day so far, at least its first hour, and start over with the next day', () => {
    const polls = new SignalPolls();
    polls.record(reset, 30);
    // At 00:30 the first hour counts whole: 30 an hour.
    expect(polls.rate(reset - day + 30 * 60_000, reset) * 3_600_000).toBeCloseTo(30);
    polls.record(reset, 30);
    // At 06:00: 60 over six hours, whatever the process's start.
    expect(polls.rate(reset - day + 6 * 3_600_000, reset) * 3_600_000).toBeCloseTo(10);
    expect(polls.rate(reset + 60_000, reset + day)).toBe(0);
  });
});
