import { describe, expect, it } from 'vitest';
import { ArrivalRhythm, RECENT_TAU_MS } from '../../../src/engine/schedule/arrival-rhythm.js';
import { fundingsPace, MAX_BURST_PACE, MIN_PACE } from '../../../src/engine/schedule/fundings-pace.js';
import { type Random, seededRandom } from '../../../src/lib/random.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Midnight UTC: hours of the day below are UTC hours. */
const t0 = Date.UTC(2026, 2, 2, 0, 0, 0);

/** Poisson arrival times in [from, to) at `perHour(t)` supporters per hour (thinning, bounded by `maxPerHour`). */
function arrivals(
  random: Random,
  from: number,
  to: number,
  perHour: (t: number) => number,
  maxPerHour: number,
) {
  const times: number[] = [];
  for (let t = from; ; ) {
    t += (-Math.log(1 - random.next()) / maxPerHour) * hour;
    if (t >= to) return times;
    if (random.next() < perHour(t) / maxPerHour) times.push(t);
  }
}

/**
 * Polls every `pollMs` from `from` to `to`, recording the arrivals found since the last poll with
 * their own times (as the fundings feed does with support timestamps). Returns the poll times.
 */
function watch(rhythm: ArrivalRhythm, times: readonly number[], from: number, to: number, pollMs: number) {
  let next = 0;
  const polls: number[] = [];
  for (let t = from; t < to; t += pollMs) {
    const found: number[] = [];
    while (next < times.length && (times[next] ?? Infinity) <= t) found.push(times[next++] ?? t);
    rhythm.record(t, found);
    polls.push(t);
  }
  return polls;
}

/** A day curve: 2 supporters an hour at night (00-08 UTC), 60 in the evening (18-22), 20 otherwise. */
const dailyCurve = (t: number) => {
  const h = new Date(t).getUTCHours();
  return h < 8 ? 2 : h >= 18 && h < 22 ? 60 : 20;
};

describe('arrival rhythm (what the planner learns)', () => {
  it('measures a steady rate from the start: the warm-up does not read as a lull or a burst', () => {
    const rhythm = new ArrivalRhythm(t0);
    const times = arrivals(seededRandom(1), t0, t0 + 3 * hour, () => 30, 30);
    watch(rhythm, times, t0, t0 + 3 * hour, 15_000);
    // Ten minutes in (a third of a time constant), over many projects: the rate is 30 an hour on
    // average, not the third of it a weighted sum started from nothing has reached by then.
    const early: number[] = [];
    for (let seed = 100; seed < 400; seed++) {
      const fresh = new ArrivalRhythm(t0);
      const few = arrivals(seededRandom(seed), t0, t0 + 10 * minute, () => 30, 30);
      watch(fresh, few, t0, t0 + 10 * minute + 1, 15_000);
      early.push(fresh.rates(t0 + 10 * minute).recent * hour);
    }
    const earlyMean = early.reduce((a, b) => a + b, 0) / early.length;
    expect(earlyMean).toBeGreaterThan(27);
    expect(earlyMean).toBeLessThan(33);
    const rates = rhythm.rates(t0 + 3 * hour);
    expect(rates.recent * hour).toBeGreaterThan(20);
    expect(rates.recent * hour).toBeLessThan(42);
    expect(rates.level * hour).toBeGreaterThan(24);
    expect(rates.level * hour).toBeLessThan(36);
  });

  it('counts supporters at the time they arrived, not when a slow poll found them', () => {
    const now = t0 + 2 * hour;
    const onTime = new ArrivalRhythm(t0);
    onTime.record(now, [now, now, now]);
    const old = new ArrivalRhythm(t0);
    old.record(now, [now - RECENT_TAU_MS, now - RECENT_TAU_MS, now - RECENT_TAU_MS]);
    // Found together, but half an hour old: they weigh e^-1 in the rate now.
    expect(old.rate(now) / onTime.rate(now)).toBeCloseTo(Math.exp(-1), 3);
    // A timestamp in the future (a skewed clock) counts as now.
    const future = new ArrivalRhythm(t0);
    future.record(now, [now + hour, now + hour, now + hour]);
    expect(future.rate(now)).toBeCloseTo(onTime.rate(now), 12);
  });

  it('learns the hour of the day only after a whole day watched, then tells the busy hours from the quiet ones', () => {
    const rhythm = new ArrivalRhythm(t0);
    const times = arrivals(seededRandom(2), t0, t0 + 5 * day, dailyCurve, 60);
    watch(rhythm, times, t0, t0 + 20 * hour, 30_000);
    expect(rhythm.hourlyRates(t0 + 20 * hour)).toBeUndefined();
    watch(
      rhythm,
      times.filter((t) => t >= t0 + 20 * hour),
      t0 + 20 * hour,
      t0 + 5 * day,
      30_000,
    );
    const hourly = rhythm.hourlyRates(t0 + 5 * day);
    expect(hourly).toBeDefined();
    const perHour = Array.from(hourly ?? [], (r) => r * hour);
    const mean = (from: number, to: number) =>
      perHour.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
    expect(mean(0, 8)).toBeLessThan(4);
    expect(mean(18, 22)).toBeGreaterThan(45);
    expect(mean(18, 22)).toBeLessThan(75);
    expect(mean(9, 17)).toBeGreaterThan(14);
    expect(mean(9, 17)).toBeLessThan(27);
  });

  it('survives a restart as about 150 bytes of text, and an idle poll does not change that text', () => {
    const rhythm = new ArrivalRhythm(t0);
    const times = arrivals(seededRandom(3), t0, t0 + 2 * day, dailyCurve, 60);
    watch(rhythm, times, t0, t0 + 2 * day, 60_000);
    const text = rhythm.toText();
    expect(text.length).toBeLessThan(220);
    rhythm.record(t0 + 2 * day + minute, []);
    expect(rhythm.toText()).toBe(text);

    const restarted = new ArrivalRhythm(t0 + 2 * day + 5 * minute);
    expect(restarted.adopt(text)).toBe(true);
    const at = t0 + 2 * day + 10 * minute;
    // Three significant digits stored: each figure within 0.5 % of the one that wrote it.
    const near = (stored: number, kept: number) =>
      expect(Math.abs(stored - kept)).toBeLessThanOrEqual(0.005 * kept);
    for (const key of ['recent', 'burst', 'level', 'watchedMs'] as const)
      near(restarted.rates(at)[key], rhythm.rates(at)[key]);
    expect(restarted.since).toBe(rhythm.since);
    const hourly = rhythm.hourlyRates(at) ?? [];
    const restartedHourly = restarted.hourlyRates(at) ?? [];
    expect(restartedHourly).toHaveLength(24);
    for (const [h, r] of restartedHourly.entries()) near(r, hourly[h] ?? Number.NaN);
  });

  it('takes a failed support back out of every rate it counted in: the rates are those of the supporters that stay', () => {
    const rhythm = new ArrivalRhythm(t0);
    const kept = new ArrivalRhythm(t0);
    const times = arrivals(seededRandom(8), t0, t0 + 2 * hour, () => 30, 30);
    watch(rhythm, times, t0, t0 + 2 * hour, 15_000);
    watch(kept, times, t0, t0 + 2 * hour, 15_000);
    // Ten more supports in the last minutes, found, then failed and found gone a read later.
    const failing = Array.from({ length: 10 }, (_, i) => t0 + 2 * hour - (10 - i) * 30_000);
    rhythm.record(t0 + 2 * hour, failing);
    rhythm.forget(t0 + 2 * hour + 15_000, failing);
    const now = t0 + 2 * hour + 15_000;
    expect(rhythm.rates(now).recent).toBeCloseTo(kept.rates(now).recent, 12);
    expect(rhythm.rates(now).burst).toBeCloseTo(kept.rates(now).burst, 12);
    expect(rhythm.rates(now).level).toBeCloseTo(kept.rates(now).level, 12);
    // Forgetting more than was counted leaves a rate of zero, not a negative one.
    const empty = new ArrivalRhythm(t0);
    empty.forget(t0 + hour, [t0 + hour]);
    expect(empty.rates(t0 + hour).recent).toBe(0);
  });

  it('keeps what it counted itself over an older stored rhythm, and ignores text it cannot read', () => {
    const stored = new ArrivalRhythm(t0);
    stored.record(t0 + hour, [t0 + hour]);
    const text = stored.toText();
    const live = new ArrivalRhythm(t0);
    live.record(t0 + 2 * hour, [t0 + 2 * hour, t0 + 2 * hour]);
    expect(live.adopt(text)).toBe(false);
    expect(live.rate(t0 + 2 * hour)).toBeGreaterThan(stored.rate(t0 + 2 * hour));
    for (const bad of [
      '',
      'r0;1;1;;;;',
      'r1;zz',
      `${text},1`,
      text.replace(/;[^;]*$/, ';-1' + ',0'.repeat(23)),
    ])
      expect(new ArrivalRhythm(t0).adopt(bad)).toBe(false);
    expect(ArrivalRhythm.fromText(text.replace(/^r1/, 'r9'))).toBeUndefined();
  });
});

describe('fundings pace (where the reads go)', () => {
  const planned = 15_000;

  it.each([
    // One supporter per four planned reads: far from the lull threshold, every read at the plan's pace.
    [60, 1],
    // One per eight, near the threshold (one per ten): a dip of the noise may thin a read by a few percent.
    [30, 0.9],
  ])(
    'keeps even reads at a flat rate of %i an hour: Poisson noise is neither a lull nor a burst',
    (perHour, least) => {
      const rhythm = new ArrivalRhythm(t0);
      const times = arrivals(seededRandom(4), t0, t0 + 12 * hour, () => perHour, perHour);
      const paces: number[] = [];
      let next = 0;
      for (let t = t0; t < t0 + 12 * hour; t += planned) {
        const found: number[] = [];
        while (next < times.length && (times[next] ?? Infinity) <= t) found.push(times[next++] ?? t);
        rhythm.record(t, found);
        paces.push(fundingsPace(rhythm, t, planned, t0 + day));
      }
      expect(Math.min(...paces)).toBeGreaterThanOrEqual(least);
      expect(Math.max(...paces)).toBe(1);
    },
  );

  it('thins out a lull, to MIN_PACE at most, and reads a burst faster, to MAX_BURST_PACE at most', () => {
    const rhythm = new ArrivalRhythm(t0);
    // Busy for two hours, then a quiet hour: one supporter in it.
    watch(
      rhythm,
      arrivals(seededRandom(5), t0, t0 + 2 * hour, () => 30, 30),
      t0,
      t0 + 2 * hour,
      planned,
    );
    rhythm.record(t0 + 2 * hour + 30 * minute, [t0 + 2 * hour + 30 * minute]);
    const lull = fundingsPace(rhythm, t0 + 4 * hour, planned, t0 + day);
    expect(lull).toBeLessThan(1);
    expect(lull).toBeGreaterThanOrEqual(MIN_PACE);
    // Then a post shared widely: 40 supporters within two minutes.
    const at = t0 + 4 * hour + 2 * minute;
    rhythm.record(
      at,
      Array.from({ length: 40 }, (_, i) => at - 2 * minute + i * 3_000),
    );
    const burst = fundingsPace(rhythm, at, planned, t0 + day);
    expect(burst).toBeGreaterThan(1.5);
    expect(burst).toBeLessThanOrEqual(MAX_BURST_PACE);
  });

  it('knows the rate at a cold start from what the first read shows of the time before', () => {
    // The first read at midnight shows the newest 100 supporters, the last of them 21 hours old; a few
    // supporters come in the first minute (on the bench, those the first fill's deeper pages make), then none.
    const old = Array.from({ length: 100 }, (_, i) => t0 - 21 * hour - i * minute);
    const firstMinute = [t0 + 20_000, t0 + 30_000, t0 + 40_000];
    const quiet = new ArrivalRhythm(t0);
    quiet.recordBefore(t0, old);
    quiet.record(t0 + minute, firstMinute);
    const unseen = new ArrivalRhythm(t0);
    unseen.record(t0 + minute, firstMinute);
    // Whatever the past showed, the first RATES_KNOWN_AFTER_MS are read at the plan's pace (a bot installed
    // at a launch: its first minutes are not the quiet day before).
    expect(fundingsPace(quiet, t0 + 5 * minute, planned, t0 + day)).toBe(1);
    expect(fundingsPace(unseen, t0 + 5 * minute, planned, t0 + day)).toBe(1);
    // After that, the first minute's three are three supporters of a quiet night, not the warm-up's
    // extrapolation of three a minute to the hour: the night is thinned at once.
    const at = t0 + 11 * minute;
    expect(quiet.rates(at, true).recent * hour).toBeLessThan(5);
    // The User key's signal windows read the rate of the time watched (ArrivalRhythm.rates).
    expect(quiet.rates(at).recent).toBe(unseen.rates(at).recent);
    expect(unseen.rates(at).recent * hour).toBeGreaterThan(12);
    expect(fundingsPace(quiet, at, planned, t0 + day)).toBeLessThan(0.45);
    expect(fundingsPace(unseen, at, planned, t0 + day)).toBeGreaterThan(0.8);
    // A list busy before the bot came (a supporter a minute) is no lull, and its rate is not inflated as a
    // warm-up's would be; what the read showed is the rates', not the level's (the time watched).
    const recent = Array.from({ length: 100 }, (_, i) => t0 - (i + 1) * minute);
    const busy = new ArrivalRhythm(t0);
    busy.recordBefore(t0, recent);
    const rates = busy.rates(t0 + 15 * minute, true);
    expect(rates.recent * hour).toBeGreaterThan(30);
    expect(rates.recent * hour).toBeLessThan(60);
    expect(rates.level).toBe(0);
    expect(fundingsPace(busy, t0 + 15 * minute, planned, t0 + day)).toBe(1);
    // Kept across a restart, and taken only once: a second view changes nothing.
    const restarted = new ArrivalRhythm(t0 + 16 * minute);
    expect(restarted.adopt(quiet.toText())).toBe(true);
    expect(restarted.ratesFrom).toBe(quiet.ratesFrom);
    const later = t0 + 20 * minute;
    expect(restarted.rates(later, true).recent * hour).toBeCloseTo(quiet.rates(later, true).recent * hour, 1);
    expect(restarted.rates(later, true).recent * hour).toBeLessThan(restarted.rates(later).recent * hour);
    quiet.recordBefore(t0 + 17 * minute, recent);
    expect(quiet.ratesFrom).toBe(Math.min(...old));
    // A replica that read the list first and then takes over a newer stored rhythm that has no view
    // (an empty list at its first read) takes the stored sums without its own view's time span.
    const viewless = new ArrivalRhythm(t0);
    viewless.record(t0 + 2 * minute, [t0 + minute]);
    const taker = new ArrivalRhythm(t0);
    taker.recordBefore(t0, recent);
    expect(taker.adopt(viewless.toText())).toBe(true);
    expect(taker.ratesFrom).toBe(t0);
    expect(taker.rates(at, true).recent).toBe(taker.rates(at).recent);
  });

  it('reads a quiet night as a lull even when every read finds a support that fails by the next', () => {
    // Two real supporters an hour; and at each read a new support that has failed by the next read (the
    // page-shift fault's insert-and-fail pair, or a run of declined cards): found, announced, withdrawn.
    const rhythm = new ArrivalRhythm(t0);
    const from = t0 + 2 * hour;
    watch(
      rhythm,
      [t0 + 10 * minute, t0 + 40 * minute, t0 + 70 * minute, t0 + 100 * minute],
      t0,
      from,
      planned,
    );
    let pending: number[] = [];
    for (let t = from; t < from + hour; t += planned) {
      rhythm.record(t, [t - 1_000]);
      rhythm.forget(t, pending);
      pending = [t - 1_000];
    }
    const pace = fundingsPace(rhythm, from + hour, planned, t0 + day);
    expect(pace).toBeLessThan(0.5);
    expect(pace).toBeGreaterThanOrEqual(MIN_PACE);
  });

  it('reads a project that is quiet all the time evenly: slowing every hour would only move reads to the reset', () => {
    const rhythm = new ArrivalRhythm(t0);
    // One supporter every two hours, for a day.
    const times = Array.from({ length: 12 }, (_, i) => t0 + (2 * i + 1) * hour);
    watch(rhythm, times, t0, t0 + day, 5 * minute);
    expect(fundingsPace(rhythm, t0 + day, planned, t0 + 2 * day)).toBe(1);
  });

  it('after a learned day, spends the quiet night hours on the busy hours before them', () => {
    const rhythm = new ArrivalRhythm(t0);
    const times = arrivals(seededRandom(6), t0, t0 + 3 * day, dailyCurve, 60);
    watch(rhythm, times, t0, t0 + 2 * day + 19 * hour, planned);
    // 19:00 on the third day, the key's budget day resetting at 08:00 after the night's lull...
    const evening = fundingsPace(rhythm, t0 + 2 * day + 19 * hour, planned, t0 + 3 * day + 8 * hour);
    // ...reads faster than the same evening when the reset falls at 22:00, before the night.
    const beforeReset = fundingsPace(rhythm, t0 + 2 * day + 19 * hour, planned, t0 + 2 * day + 22 * hour);
    expect(beforeReset).toBe(1);
    expect(evening).toBeGreaterThan(1);
    // ...and the night itself is read at a lull's pace, not more than planned.
    const night = new ArrivalRhythm(t0);
    watch(night, times, t0, t0 + 2 * day + 3 * hour, planned);
    expect(fundingsPace(night, t0 + 2 * day + 3 * hour, planned, t0 + 3 * day)).toBeLessThan(1);
  });
});

/**
 * A whole budget day on a virtual clock, as the engine plans it: `reads` fundings reads, each
 * interval the rest of the budget spread evenly to the reset, paced by the rhythm (fundings-pace.ts)
 * or not at all. Returns each supporter's wait for the next read.
 */
function planDay(times: readonly number[], reads: number, paced: boolean) {
  const rhythm = new ArrivalRhythm(t0);
  const reset = t0 + day;
  const readTimes: number[] = [];
  let next = 0;
  for (let t = t0, left = reads; t < reset && left > 0; left--) {
    readTimes.push(t);
    const found: number[] = [];
    while (next < times.length && (times[next] ?? Infinity) <= t) found.push(times[next++] ?? t);
    rhythm.record(t, found);
    const planned = (reset - t) / Math.max(1, left - 1);
    t += planned / (paced ? fundingsPace(rhythm, t, planned, reset) : 1);
  }
  let r = 0;
  const waits = times.map((at) => {
    while (r < readTimes.length && (readTimes[r] ?? 0) < at) r++;
    return (readTimes[r] ?? reset + hour) - at;
  });
  const sorted = [...waits].sort((a, b) => a - b);
  return {
    p95: sorted[Math.ceil(0.95 * sorted.length) - 1] ?? 0,
    mean: waits.reduce((s, w) => s + w, 0) / waits.length,
    reads: readTimes.length,
  };
}

describe('a whole day of the key alone (virtual clock, the reads of a uniform poller)', () => {
  const reads = 6_000;

  it('on a launch day, beats the uniform poller at equal reads on the p95 and the mean', () => {
    // Quiet nights, a launch at 07:00 decaying over the morning, the evening peak.
    const launch = t0 + 7 * hour;
    const launchDay = (t: number) =>
      dailyCurve(t) + (t >= launch ? 300 * Math.exp(-(t - launch) / (45 * minute)) : 0);
    const times = arrivals(seededRandom(7), t0, t0 + day, launchDay, 320);
    const paced = planDay(times, reads, true);
    const uniform = planDay(times, reads, false);
    expect(paced.reads).toBe(uniform.reads);
    expect(paced.p95 / uniform.p95).toBeLessThanOrEqual(0.9);
    expect(paced.mean / uniform.mean).toBeLessThanOrEqual(0.85);
  });

  it.each([
    [60, 8, 1],
    // One supporter per 8 reads, near the lull threshold: its noise costs about 1 %.
    [30, 9, 1.02],
  ])('on a flat day of %i supporters an hour, reads like the uniform poller', (perHour, seed, most) => {
    const times = arrivals(seededRandom(seed), t0, t0 + day, () => perHour, perHour);
    const paced = planDay(times, reads, true);
    const uniform = planDay(times, reads, false);
    expect(paced.p95 / uniform.p95).toBeLessThanOrEqual(most);
    expect(paced.mean / uniform.mean).toBeLessThanOrEqual(most);
  });
});
