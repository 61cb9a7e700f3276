import { describe, expect, it } from 'vitest';
import { ArrivalRhythm } from '../../../src/engine/schedule/arrival-rhythm.js';
import {
  BUSY_KNOWN_AFTER_MS,
  fundingsPace,
  MAX_BUSY_PACE,
  MIN_PACE,
} from '../../../src/engine/schedule/fundings-pace.js';

const minute = 60_000;
const hour = 60 * minute;
/** Midnight UTC; the key's day resets a day later (no learned hour of the day: one day watched at most). */
const t0 = Date.UTC(2026, 2, 2, 0, 0, 0);
const reset = t0 + 24 * hour;
const planned = 15_000;

/**
 * A rhythm fed as the fundings feed feeds it on a virtual clock: a read every `planned` ms records the
 * supporters that arrived since the last one, with their own times. `perHour` gives each stretch's
 * steady rate (evenly spaced arrivals, so the figures do not hang on a seed).
 */
function watched(stretches: readonly { hours: number; perHour: number }[]) {
  const rhythm = new ArrivalRhythm(t0);
  let from = t0;
  for (const { hours, perHour } of stretches) {
    const to = from + hours * hour;
    const gap = perHour > 0 ? hour / perHour : Number.POSITIVE_INFINITY;
    let next = from + gap / 2;
    for (let t = from + planned; t <= to; t += planned) {
      const found: number[] = [];
      for (; next <= t; next += gap) found.push(next);
      rhythm.record(t, found);
    }
    from = to;
  }
  return { rhythm, now: from };
}

describe('fundings pace against the project level (the key alone on its first day)', () => {
  it('thins a quiet evening well under the level from one supporter per five reads', () => {
    // Six hours at 150 an hour, then two at 20: one supporter per twelve reads, above the one per ten
    // of a lull on its own (its noise bound is one per eight), but under a quarter of this project's level.
    const { rhythm, now } = watched([
      { hours: 6, perHour: 150 },
      { hours: 2, perHour: 20 },
    ]);
    const pace = fundingsPace(rhythm, now, planned, reset);
    expect(pace).toBeLessThan(0.8);
    expect(pace).toBeGreaterThanOrEqual(MIN_PACE);
    expect(fundingsPace(rhythm, now, planned, reset, false)).toBe(1);
  });

  it('keeps even reads for a project steady at that same rate: never under its own level', () => {
    const { rhythm, now } = watched([{ hours: 8, perHour: 20 }]);
    expect(fundingsPace(rhythm, now, planned, reset)).toBe(1);
  });

  it('keeps even reads in the ordinary hours after a launch the bot was installed at', () => {
    // The bench's campaign day: the spike's first hours (15x decaying over 45 minutes) inflate the level for
    // hours; 35 an hour after it is the project's ordinary day, not a lull (under half the level it was one,
    // and the campaign day's fundings p95 went 9,798 -> 11,539 ms).
    const { rhythm, now } = watched([
      { hours: 1, perHour: 380 },
      { hours: 1, perHour: 140 },
      { hours: 1, perHour: 70 },
      { hours: 4, perHour: 35 },
    ]);
    expect(fundingsPace(rhythm, now, planned, reset)).toBe(1);
  });

  it('reads busy hours faster by the square root of the rate over the level, at most MAX_BUSY_PACE', () => {
    // Four hours at 60 an hour, then an hour at 240 (one supporter a read): the launch's decay.
    const { rhythm, now } = watched([
      { hours: 4, perHour: 60 },
      { hours: 1, perHour: 240 },
    ]);
    const pace = fundingsPace(rhythm, now, planned, reset);
    expect(pace).toBeGreaterThan(1.2);
    expect(pace).toBeLessThanOrEqual(MAX_BUSY_PACE);
    // With the User key's change signal its reads find a busy hour's supporters: the plan's pace.
    expect(fundingsPace(rhythm, now, planned, reset, false)).toBe(1);
  });

  it('does not call a rate busy before the level spans BUSY_KNOWN_AFTER_MS, nor a busy rate of few supporters per read', () => {
    // The same hour at 240 after only an hour watched: a cold start's level is not yet the project's.
    const early = watched([
      { hours: BUSY_KNOWN_AFTER_MS / hour - 2, perHour: 60 },
      { hours: 1, perHour: 240 },
    ]);
    expect(fundingsPace(early.rhythm, early.now, planned, reset)).toBe(1);
    // Four times the level, but one supporter per twelve reads: the reads would cost the p95 elsewhere.
    const few = watched([
      { hours: 4, perHour: 5 },
      { hours: 1, perHour: 20 },
    ]);
    expect(fundingsPace(few.rhythm, few.now, planned, reset)).toBe(1);
  });
});
