import { type ArrivalRhythm, BURST_TAU_MS, RECENT_TAU_MS, type RhythmRates } from './arrival-rhythm.js';

/**
 * How fast the fundings list is read against the plan's even spread (1 = the planned interval),
 * from the project's arrival rhythm (arrival-rhythm.ts). The plan spreads what is left of the key's
 * day evenly to the reset (budget-plan.ts); this pace moves reads out of lulls and into bursts, and
 * the next re-plans, from the headers, pay for it from the rest of the day.
 *
 * A uniform poller's supporter p95 is 0.95 of its interval, and only reads taken from where few
 * supporters arrive can lower it for the rest (docs/latency-bound.md); reads added where many arrive
 * lower the mean but cost the p95 everywhere else. So:
 *
 * - **Lulls.** Where fewer than {@link QUIET_ARRIVALS_PER_READ} supporters arrive per planned read
 *   (the recent rate's upper bound: Poisson noise is not a lull), reads thin out in proportion, to
 *   {@link MIN_PACE} at most: the night before a launch is read a
 *   quarter as often, and what it saves makes every busy hour after it faster. The few supporters
 *   of a lull wait longer, within the 5 % a p95 leaves out. A project that is quiet all the time
 *   (its level under {@link QUIET_PROJECT_ARRIVALS_PER_READ}, once watched {@link LEVEL_KNOWN_AFTER_MS})
 *   keeps even reads: slowing all its hours would only move its reads to the end of the day.
 *   Where the recent rate is also under {@link LULL_LEVEL_SHARE} of the project's own level (the
 *   night after a launch, not a project that is always this quiet), the lull starts at
 *   {@link QUIET_BELOW_LEVEL_ARRIVALS_PER_READ} instead: its reads buy the p95 of the busy hours.
 * - **Bursts.** When the last two minutes bring several times the recent rate (a post shared
 *   widely, the first minutes of a launch), reads speed up by the square root of that ratio (the
 *   spacing that gives the least mean wait for a known rate), at most {@link MAX_BURST_PACE}.
 * - **Busy hours.** Once the level spans {@link BUSY_KNOWN_AFTER_MS}, a recent rate clearly above it
 *   (and above {@link BUSY_ARRIVALS_PER_READ} per planned read) is read faster by the square root of
 *   the ratio, at most {@link MAX_BUSY_PACE}: the hours after a launch, past its first minutes' burst,
 *   hold the most supporters a read and gain the mean wait most (on the bench's launch day the
 *   evening peak, about 0.4 a read, stays at the plan's pace).
 * - **The hour of the day.** Once a whole day has been watched, the hours still to come before the
 *   reset that are usually lulls are read at their lull pace too; the plan, which assumes even reads
 *   to the reset, would keep their budget for them, so the hours before them get it now.
 */

/**
 * Below this many supporters per planned read the list is in a lull (one supporter per ten reads).
 * At 0.05 (one per 20) a launch day's night was read at a third of the plan and the key alone stayed
 * at 0.96x / 0.91x a uniform poller's p95 / mean; at one per ten, 0.94x / 0.89x (docs/latency-bound.md,
 * "The key alone"): the hours that hold the last few percent of a day's supporters give their reads
 * to the rest, and every hour busier than that keeps at least its planned pace.
 */
export const QUIET_ARRIVALS_PER_READ = 0.1;
/**
 * A lull is called on the recent rate's upper bound: its count over the last half hour plus this many
 * Poisson standard deviations (and one), so a steady rate near the threshold is not read as a lull
 * every time its count dips (uneven reads where arrivals are even cost the p95).
 */
export const LULL_NOISE_SIGMAS = 1;
/**
 * A project that averages fewer supporters than this per planned read (one per 20) is quiet all the
 * time: its lulls are its normal rate, and thinning them would only move its reads to the reset.
 */
export const QUIET_PROJECT_ARRIVALS_PER_READ = 0.05;
/**
 * Below this share of the project's level (its average rate, arrival-rhythm.ts) the recent rate is a
 * lull against the project's own day, and the lull threshold rises to
 * {@link QUIET_BELOW_LEVEL_ARRIVALS_PER_READ}. A project steady at any rate never falls under it, so its
 * reads stay even (a flat day of 30 an hour, one per eight reads, is not thinned). Not half: a bot
 * installed at the launch learns a level the launch's spike inflates for the next ten hours, and at half
 * its ordinary hours were thinned (the bench's campaign day, fundings p95 9,798 -> 11,539 ms); at 0.35
 * 9,916 ms, and the whole day from midnight keeps its gain (wholeDay.keyOnly.dailyCurve mean 0.84x, p95
 * 0.95x -> 0.94x; at 0.25 the night after the launch was no longer thinned: 0.90x / 0.97x).
 */
export const LULL_LEVEL_SHARE = 0.35;
/** The lull threshold (supporters per planned read) where the recent rate is under {@link LULL_LEVEL_SHARE} of the level. */
export const QUIET_BELOW_LEVEL_ARRIVALS_PER_READ = 0.2;
/**
 * Busier than this many supporters per planned read, and clearly above the level, the list is read
 * faster (the busy hours): below it the reads a speed-up takes from the rest of the day cost the p95
 * more than they gain the mean.
 */
export const BUSY_ARRIVALS_PER_READ = 0.6;
/** At most this many times the planned pace in a busy hour (a burst may go to {@link MAX_BURST_PACE}). */
export const MAX_BUSY_PACE = 1.5;
/** Busy: the recent count above the reference by this many Poisson standard deviations (and one). */
const BUSY_NOISE_SIGMAS = 2;
/** The level must span this long before a rate is called busier than it (a cold start's level is its night). */
export const BUSY_KNOWN_AFTER_MS = 3 * 3_600_000;
/** A lull is read at no less than this share of the planned pace. */
export const MIN_PACE = 0.25;
/** At most this many times the planned pace in a burst. */
export const MAX_BURST_PACE = 4;
/**
 * A burst: the last two minutes' rate at least this many times the recent one, and above the
 * Poisson noise of a steady rate ({@link BURST_NOISE_SIGMAS} standard deviations, plus two).
 */
export const BURST_RATIO = 3;
const BURST_NOISE_SIGMAS = 3;
/** ...and at least this many supporters per planned read: a few supporters on a quiet list are not a burst. */
export const BURST_ARRIVALS_PER_READ = 0.3;
/**
 * A cold start learns the project's level for this long before it may call the project quiet all
 * the time; until then a lull is taken for a lull (the rest of the day will be busier).
 */
export const LEVEL_KNOWN_AFTER_MS = 6 * 3_600_000;
/**
 * No lull is read into the rates before they have been watched this long, whatever the first read
 * showed of the time before (ArrivalRhythm.recordBefore): a bot installed at a launch must not read
 * its first minutes as the quiet day before them.
 */
export const RATES_KNOWN_AFTER_MS = 10 * 60_000;

const HOUR_MS = 3_600_000;

/**
 * The pace of a list receiving `arrivalsPerRead` supporters per planned read: 1, or less in a lull
 * (below `quietBelow` supporters per read, {@link QUIET_ARRIVALS_PER_READ} unless the rate is under the level).
 */
export function lullPace(arrivalsPerRead: number, quietBelow = QUIET_ARRIVALS_PER_READ): number {
  return arrivalsPerRead >= quietBelow ? 1 : Math.max(MIN_PACE, arrivalsPerRead / quietBelow);
}

/**
 * A count of Poisson arrivals `sigmas` standard deviations above `mean`, and `plus` more (a small count's
 * noise is larger than its square root says): the one noise bound of the lull, burst and busy rules.
 */
function aboveNoise(mean: number, sigmas: number, plus: number): number {
  return mean + sigmas * Math.sqrt(mean) + plus;
}

/** The recent count's upper bound ({@link LULL_NOISE_SIGMAS}) over {@link RECENT_TAU_MS}. */
function recentUpperCount(rates: RhythmRates): number {
  return aboveNoise(rates.recent * RECENT_TAU_MS, LULL_NOISE_SIGMAS, 1);
}

/** The lull threshold for `rates`: higher where even the recent rate's upper bound is under {@link LULL_LEVEL_SHARE} of the level. */
export function quietThreshold(rates: RhythmRates): number {
  const underLevel = recentUpperCount(rates) / RECENT_TAU_MS < LULL_LEVEL_SHARE * rates.level;
  return underLevel ? QUIET_BELOW_LEVEL_ARRIVALS_PER_READ : QUIET_ARRIVALS_PER_READ;
}

/**
 * The busy hours' pace: √(recent / reference) when the recent count is clearly above the reference
 * (the level, or {@link BUSY_ARRIVALS_PER_READ} per planned read if higher), else 1.
 */
export function busyPace(rates: RhythmRates, plannedIntervalMs: number): number {
  const reference = Math.max(rates.level, BUSY_ARRIVALS_PER_READ / plannedIntervalMs);
  const expected = reference * RECENT_TAU_MS;
  const count = rates.recent * RECENT_TAU_MS;
  if (count <= aboveNoise(expected, BUSY_NOISE_SIGMAS, 1)) return 1;
  return Math.min(MAX_BUSY_PACE, Math.sqrt(rates.recent / reference));
}

/**
 * Supporters per planned read at the recent rate's upper bound ({@link LULL_NOISE_SIGMAS}): what
 * {@link lullPace} is given, so Poisson noise alone does not make a lull.
 */
export function recentArrivalsPerRead(rates: RhythmRates, plannedIntervalMs: number): number {
  return (recentUpperCount(rates) / RECENT_TAU_MS) * plannedIntervalMs;
}

/** Whether the last two minutes are a burst against the recent rate (`rates`, per ms). */
export function isBurst(rates: RhythmRates, plannedIntervalMs: number): boolean {
  const expected = rates.recent * BURST_TAU_MS;
  const seen = rates.burst * BURST_TAU_MS;
  return (
    seen > Math.max(BURST_RATIO * expected, aboveNoise(expected, BURST_NOISE_SIGMAS, 2)) &&
    rates.burst * plannedIntervalMs >= BURST_ARRIVALS_PER_READ
  );
}

/**
 * The fundings pace at `now` for a plan that reads every `plannedIntervalMs` until the key's day
 * resets at `dayResetAt`: the interval to use is `plannedIntervalMs / pace`.
 */
export function fundingsPace(
  rhythm: ArrivalRhythm,
  now: number,
  plannedIntervalMs: number,
  dayResetAt: number,
  /**
   * Whether the key alone finds the supporters (no User key change signal, signal-interleave.ts). The
   * level's rules (a lull under half the level, busy hours) are for the key alone: with the signal its
   * reads already find a busy hour's supporters within a read, and the level's rules on top cost the
   * whole day with the User key 3 % of its p95 and mean (wholeDay.dailyCurve 8,986 -> 9,256 ms).
   */
  keyAlone = true,
): number {
  const rates = rhythm.rates(now, keyAlone);
  const watched = now - rhythm.since;
  const quietProject =
    watched >= LEVEL_KNOWN_AFTER_MS && rates.level * plannedIntervalMs < QUIET_PROJECT_ARRIVALS_PER_READ;
  const lulls = !quietProject && watched >= RATES_KNOWN_AFTER_MS;
  const quietBelow = keyAlone ? quietThreshold(rates) : QUIET_ARRIVALS_PER_READ;
  const paceNow = lullPace(recentArrivalsPerRead(rates, plannedIntervalMs), quietBelow);
  let pace = lulls ? paceNow : 1;
  if (isBurst(rates, plannedIntervalMs))
    pace = Math.max(pace, Math.min(MAX_BURST_PACE, Math.sqrt(rates.burst / rates.recent)));
  const busy = keyAlone && watched >= BUSY_KNOWN_AFTER_MS ? busyPace(rates, plannedIntervalMs) : 1;
  if (busy > 1) pace = Math.max(pace, busy);
  if (!lulls) return pace;
  return pace / expectedPace(rhythm, now, plannedIntervalMs, dayResetAt, paceNow);
}

/**
 * The mean lull pace over the rest of the budget day (the current hour at `paceNow`, the later
 * ones at their usual rate's), or 1 while no whole day has been watched.
 */
export function expectedPace(
  rhythm: ArrivalRhythm,
  now: number,
  plannedIntervalMs: number,
  dayResetAt: number,
  paceNow: number,
): number {
  const hourly = rhythm.hourlyRates(now);
  const left = dayResetAt - now;
  if (hourly === undefined || left <= 0) return 1;
  let sum = 0;
  for (let start = now; start < dayResetAt; ) {
    const end = Math.min(dayResetAt, (Math.floor(start / HOUR_MS) + 1) * HOUR_MS);
    const pace =
      start === now ? paceNow : lullPace((hourly[new Date(start).getUTCHours()] ?? 0) * plannedIntervalMs);
    sum += pace * (end - start);
    start = end;
  }
  return Math.max(MIN_PACE, sum / left);
}
