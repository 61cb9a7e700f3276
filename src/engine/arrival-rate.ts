import { DecayingRate } from './decaying-rate.js';

/**
 * Where the supporters are: a feed's arrival rate learned from the entries it has seen,
 * and the pace rule that moves the budget towards the hours with arrivals.
 *
 * To make the mean wait of arrivals at rate λ(t) smallest with N polls in a day, a poller
 * polls at a rate proportional to √λ(t) (minimise ∫ λ/(2r) dt with ∫ r dt = N: λ/r² is
 * constant). The p95 wants the opposite for a steady rate: even intervals. So the planner
 * spreads the budget evenly over the time to the reset (budget-plan.ts), and this pace
 * speeds the fundings up by the square root of how far the recent rate stands above
 * {@link BOOST_FROM} times its average (a launch spike, an evening peak); the next re-plans
 * pay for it from the rest of the day, quiet hours included. The budget itself is never at
 * risk: the plan is re-made from the headers after every poll, and the credential gate
 * keeps the reserve whatever the pace.
 */

/** The recent arrival rate forgets with this time constant (a launch spike decays in about 45 min). */
export const RECENT_TAU_MS = 15 * 60_000;
/** The average rate the pace compares with forgets with this time constant (a few hours). */
export const AVERAGE_TAU_MS = 4 * 60 * 60_000;
/**
 * The pace rises above 1 only where the recent rate is this many times the average: Poisson
 * noise around a flat rate (about ±25% over {@link RECENT_TAU_MS} at one arrival a minute) never
 * reaches it, so a flat day keeps even intervals, which is what gives it the lowest p95.
 */
export const BOOST_FROM = 2;
/** The pace stays at or under this: the day's budget is not spent in one spike. */
export const PACE_MAX = 2;
/** A floor under the rates (one arrival an hour), so that a quiet list's noise does not swing the pace. */
const RATE_FLOOR_PER_MS = 1 / (60 * 60_000);

/**
 * An exponentially weighted arrival rate (entries per ms) and its long-run average.
 * Record every poll's new entries with {@link record}; read {@link pace}.
 */
export class ArrivalRate {
  readonly #recent: DecayingRate;
  /** The recent rate at `#at`. */
  #rate = 0;
  #average: number | null = null;
  #at: number;
  readonly #since: number;

  constructor(now: number) {
    this.#recent = new DecayingRate(RECENT_TAU_MS, now);
    this.#at = now;
    this.#since = now;
  }

  /** `count` new entries found at `now` (0 for an idle poll: time passing lowers the rate). */
  record(now: number, count: number): void {
    this.#advance(now);
    this.#recent.record(now, count);
    this.#rate = this.#recent.rate(now);
  }

  /** The recent arrival rate in entries per ms. */
  rate(now: number): number {
    this.#advance(now);
    return this.#rate;
  }

  /**
   * How much faster than the even spread this feed should be polled now: √(recent rate over
   * {@link BOOST_FROM} × its average), within [1, {@link PACE_MAX}]. 1 until the rate has been
   * watched for {@link RECENT_TAU_MS} (a fresh start knows no average: it starts from the rate then).
   */
  pace(now: number): number {
    this.#advance(now);
    if (this.#average === null) return 1;
    const ratio = (this.#rate + RATE_FLOOR_PER_MS) / (BOOST_FROM * (this.#average + RATE_FLOOR_PER_MS));
    return Math.min(PACE_MAX, Math.max(1, Math.sqrt(ratio)));
  }

  #advance(now: number): void {
    const dt = Math.max(0, now - this.#at);
    this.#at = Math.max(this.#at, now);
    if (dt === 0) return;
    const before = this.#rate;
    this.#rate = this.#recent.rate(now);
    // The time average of the rate, its inflow the mean over the step (trapezoid).
    const mean = (before + this.#rate) / 2;
    const keep = Math.exp(-dt / AVERAGE_TAU_MS);
    if (this.#average !== null) this.#average = this.#average * keep + mean * (1 - keep);
    else if (now - this.#since >= RECENT_TAU_MS) {
      // Started from 0, the recent rate has reached only 1 - e^(-t/τ) of the rate it measures.
      this.#average = this.#rate / (1 - Math.exp(-(now - this.#since) / RECENT_TAU_MS));
    }
  }
}
