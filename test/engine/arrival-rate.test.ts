import { describe, expect, it } from 'vitest';
import { ArrivalRate, BOOST_FROM, PACE_MAX, RECENT_TAU_MS } from '../../src/engine/arrival-rate.js';
import { seededRandom } from '../../src/lib/random.js';

const minute = 60_000;
const t0 = Date.UTC(2026, 2, 2, 0, 0, 0);

/** Polls every `pollMs` from `from` to `to`, each finding the Poisson arrivals at `perMinute` since the last. */
function feed(rate: ArrivalRate, from: number, to: number, perMinute: number, pollMs = 15_000, seed = 1) {
  const random = seededRandom(seed);
  const paces: number[] = [];
  for (let t = from; t < to; t += pollMs) {
    // Arrivals in one poll interval: Bernoulli steps small enough to be Poisson.
    let found = 0;
    const steps = 100;
    for (let i = 0; i < steps; i++) if (random.next() < (perMinute * pollMs) / minute / steps) found += 1;
    rate.record(t, found);
    paces.push(rate.pace(t));
  }
  return paces;
}

describe('arrival pace (where the supporters are)', () => {
  it('is 1 until the rate has been watched for one time constant: a fresh start knows no average', () => {
    const rate = new ArrivalRate(t0);
    rate.record(t0 + minute, 50);
    expect(rate.pace(t0 + minute)).toBe(1);
    expect(rate.pace(t0 + RECENT_TAU_MS - 1)).toBe(1);
  });

  it('keeps even intervals at a flat rate: Poisson noise never reaches the boost', () => {
    const rate = new ArrivalRate(t0);
    const paces = feed(rate, t0, t0 + 12 * 60 * minute, 1);
    expect(Math.max(...paces)).toBe(1);
  });

  it('speeds up in a spike, by at most PACE_MAX, and comes back to 1 when it is over', () => {
    const rate = new ArrivalRate(t0);
    feed(rate, t0, t0 + 6 * 60 * minute, 0.5);
    const spike = feed(rate, t0 + 6 * 60 * minute, t0 + 6 * 60 * minute + 30 * minute, 20, 15_000, 2);
    expect(Math.max(...spike)).toBeGreaterThan(1.5);
    expect(Math.max(...spike)).toBeLessThanOrEqual(PACE_MAX);
    const after = feed(rate, t0 + 7 * 60 * minute, t0 + 10 * 60 * minute, 0.5, 15_000, 3);
    expect(after.at(-1)).toBe(1);
  });

  it('boosts by the square root of the rate over BOOST_FROM times its average', () => {
    const rate = new ArrivalRate(t0);
    // An arrival every minute for 8 hours: the average settles at 1/min.
    for (let t = t0; t < t0 + 8 * 60 * minute; t += minute) rate.record(t, 1);
    const at = t0 + 8 * 60 * minute;
    // A jump that lifts the recent rate to about 4.5x: the pace is about √(4.5 / BOOST_FROM).
    rate.record(at, Math.round(3.5 * (RECENT_TAU_MS / minute)));
    const expected = Math.sqrt(rate.rate(at) / (BOOST_FROM * (1 / minute)));
    expect(rate.pace(at)).toBeCloseTo(Math.min(PACE_MAX, expected), 1);
  });
});
