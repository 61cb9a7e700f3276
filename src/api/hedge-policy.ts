import { type RateBudget, windowAtReserve } from './rate-budget.js';

/**
 * Hedged GETs ("The Tail at Scale"): a GET still unanswered after `afterMs` gets a
 * copy (and one more after another delay, hedged-attempt.ts), and the first complete answer wins. Every GET of the spec is safe to
 * repeat ("All GET endpoints: safe to retry, no effect"), so a copy changes nothing
 * but the budget, and that cost is capped: at most `maxShare` of all requests are
 * copies, never one from the last tenth of a credential's minute or day budget.
 *
 * Why: one request in a hundred held 5 s made a project's run 5 s slower for each
 * one it met, in a row (its feeds are polled one after the other to keep
 * exactly-once simple), and held a start-up slot meanwhile. At 1,000 projects the
 * first poll of all came after 17.6 s; with copies after 1.5 s, see bench `scale`.
 */
export interface HedgeSettings {
  /**
   * Real-time ms without an answer before the copy goes. The floor: when the API is
   * slow overall, the copy waits twice the recent 95th percentile instead, so a
   * uniformly slow API does not get every request twice.
   */
  readonly afterMs: number;
  /** Copies are at most this share of the last minute's requests (0.02 = 2 %), plus `burst`. */
  readonly maxShare: number;
  /**
   * Copies allowed in a minute on top of the share: slow answers come in bursts (a
   * congested moment, the start of hundreds of projects), and a quiet client has
   * earned no share yet. Default 10.
   */
  readonly burst: number;
}

/**
 * The bot's default floor (config `api.hedgeAfterMs`): well above a normal answer (the simulator's p95 was 50-650 ms
 * while three replicas polled 3,000 projects for the first time on two cores, so the floor, not twice the p95, set
 * every delay), well below the 10 s timeout. It was 1.5 s: then each replica's last few projects were those that met
 * the 5 s hold near the end and waited 1.5 s (or 3 s) for their copy, 2-3 s after the other 99 % (bench scaleRedis,
 * replica-<i>.first-polls.json). At 750 ms that tail is 0.4-1.2 s: first polls per replica 12.8 s mean against 14.0 s,
 * two interleaved runs each on the same hour. The share cap (2 % plus 10 a minute) bounds the copies as before.
 */
export const DEFAULT_HEDGE_AFTER_MS = 750;
export const DEFAULT_HEDGE_SHARE = 0.02;
export const DEFAULT_HEDGE_BURST = 10;
/** Answer times kept for the percentile. */
const SAMPLE_SIZE = 256;
/** The percentile is recomputed after this many answers (a sort of 256 numbers, not at every request). */
const RECOMPUTE_EVERY = 32;
/** The share is counted over the last minute, in 10-s slots (real time, like the delay). */
const SLOT_MS = 10_000;
const SLOTS = 6;
/** A copy never takes this share of a credential's minute or day budget: that part stays for real reads and commands. */
const KEEP_SHARE = 0.1;

/**
 * Decides when a GET gets its copy and whether one may go now. One per API client
 * (all credentials): copies in the last minute <= burst + maxShare x requests in it.
 */
export class HedgePolicy {
  readonly #settings: HedgeSettings;
  readonly #now: () => number;
  readonly #samples: number[] = [];
  #nextSample = 0;
  #sinceRecompute = 0;
  #delayMs: number;
  /** Per 10-s slot of the last minute: requests sent and copies among them. */
  readonly #sent = new Array<number>(SLOTS).fill(0);
  readonly #copies = new Array<number>(SLOTS).fill(0);
  #slot = 0;
  #slotStartedAt: number;

  constructor(settings: HedgeSettings, now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
    this.#delayMs = settings.afterMs;
    this.#slotStartedAt = now();
  }

  /** How long a GET waits for its answer before its copy may go. */
  get delayMs(): number {
    return this.#delayMs;
  }

  /** A request was sent (`copy`: it is the copy of a slow one). */
  onSent(copy: boolean): void {
    this.#roll();
    this.#sent[this.#slot] = (this.#sent[this.#slot] ?? 0) + 1;
    if (copy) this.#copies[this.#slot] = (this.#copies[this.#slot] ?? 0) + 1;
  }

  /** An answer arrived after `durationMs`: feeds the percentile behind the delay. */
  onAnswered(durationMs: number): void {
    if (this.#samples.length < SAMPLE_SIZE) this.#samples.push(durationMs);
    else this.#samples[this.#nextSample] = durationMs;
    this.#nextSample = (this.#nextSample + 1) % SAMPLE_SIZE;
    if (++this.#sinceRecompute < RECOMPUTE_EVERY) return;
    this.#sinceRecompute = 0;
    const sorted = [...this.#samples].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
    this.#delayMs = Math.max(this.#settings.afterMs, Math.round(2 * p95));
  }

  /**
   * Whether a copy may go now for a credential whose last known budget is `budget`
   * (undefined: none seen yet). The copy is counted when it is sent (onSent).
   */
  mayCopy(budget: RateBudget | undefined, clockNow: number): boolean {
    if (budget !== undefined && windowAtReserve(budget, KEEP_SHARE, clockNow) !== undefined) return false;
    this.#roll();
    const sent = this.#sent.reduce((a, b) => a + b, 0);
    const copies = this.#copies.reduce((a, b) => a + b, 0);
    return copies + 1 <= this.#settings.burst + this.#settings.maxShare * sent;
  }

  /** Moves to the current 10-s slot, emptying the ones that fell out of the minute. */
  #roll(): void {
    const elapsed = Math.floor((this.#now() - this.#slotStartedAt) / SLOT_MS);
    if (elapsed <= 0) return;
    for (let i = 0; i < Math.min(elapsed, SLOTS); i++) {
      this.#slot = (this.#slot + 1) % SLOTS;
      this.#sent[this.#slot] = 0;
      this.#copies[this.#slot] = 0;
    }
    this.#slotStartedAt += elapsed * SLOT_MS;
  }
}
