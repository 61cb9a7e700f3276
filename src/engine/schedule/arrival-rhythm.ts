/**
 * A project's supporter arrival rhythm, learned from the support timestamps of the entries the
 * fundings feed finds, and small enough to live in the project state (about 150 bytes of text):
 *
 * - the last minutes' rate: exponentially weighted over {@link RECENT_TAU_MS} (the rate now) and
 *   over {@link BURST_TAU_MS} (a burst, or the first minutes of a launch spike);
 * - the project's level: its average rate over the last days ({@link LEVEL_TAU_MS});
 * - the hour of the day: arrivals per UTC hour over the last weeks ({@link PROFILE_TAU_MS}), which
 *   tells the planner which hours of the rest of the budget day are usually quiet.
 *
 * It counts the supporters that stay: a support that fails before payout is taken back out
 * ({@link ArrivalRhythm.forget}). Every sum is kept as of the last change it counted and decays on
 * reading, so an idle poll changes nothing: the stored text changes only when supporters arrive or
 * fail, in the commits that store them anyway (fundings-pace.ts turns the rhythm into the pace of the polls).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The rate now forgets with this time constant. */
export const RECENT_TAU_MS = 30 * 60_000;
/** A burst's rate forgets with this time constant (a post shared widely: dozens within two minutes). */
export const BURST_TAU_MS = 2 * 60_000;
/** The project's level (its average rate) covers about the last two days. */
export const LEVEL_TAU_MS = 2 * DAY_MS;
/** The hour-of-day profile covers about the last week, so a changed rhythm is learned within days. */
export const PROFILE_TAU_MS = 7 * DAY_MS;

/** The rates a pace decision reads, all in supporters per ms. */
export interface RhythmRates {
  /** The rate of the last half hour or so. */
  readonly recent: number;
  /** The rate of the last two minutes or so. */
  readonly burst: number;
  /** The average over the time watched (up to about two days), and how long that is (ms, decayed). */
  readonly level: number;
  readonly watchedMs: number;
}

/** An arrival's weight in the recent and the burst sums at `ageMs` (each sum over its τ is a count). */
const recentWeight = (ageMs: number) => Math.exp(-ageMs / RECENT_TAU_MS) / RECENT_TAU_MS;
const burstWeight = (ageMs: number) => Math.exp(-ageMs / BURST_TAU_MS) / BURST_TAU_MS;

/** Text format version: a stored rhythm of another version is ignored (learned again). */
const TEXT_VERSION = 'r1';

export class ArrivalRhythm {
  /** Epoch ms every sum below is decayed to: the last record that counted arrivals. */
  #at: number;
  /** Epoch ms watching started (the first poll of this project ever, as far as the state knows). */
  #since: number;
  /**
   * Epoch ms from which the first read's view of the time before covers every arrival: when watching
   * started, or earlier when the first read showed the list's newest supporters ({@link recordBefore}).
   */
  #ratesFrom: number;
  #recent = 0;
  #burst = 0;
  /** The first read's view of the time before, weighted like {@link #recent} and {@link #burst}. */
  #beforeRecent = 0;
  #beforeBurst = 0;
  #level = 0;
  /** Arrivals per UTC hour of the day, each weighted e^(-age / PROFILE_TAU_MS). */
  readonly #hours = new Float64Array(24);
  /** The text last written or adopted (unchanged until arrivals are recorded). */
  #text: string | undefined;
  /** Exposure of each UTC hour (ms watched, decayed like #hours), cached per hour of the clock. */
  #exposure: { readonly hour: number; readonly ms: Float64Array } | null = null;

  constructor(now: number) {
    this.#at = now;
    this.#since = now;
    this.#ratesFrom = now;
  }

  /** Epoch ms of the last record that counted arrivals (the newer of two rhythms wins: {@link adopt}). */
  get at(): number {
    return this.#at;
  }

  /** Epoch ms watching started. */
  get since(): number {
    return this.#since;
  }

  /** Epoch ms from which the rates with the time before count every arrival (at most {@link since}). */
  get ratesFrom(): number {
    return this.#ratesFrom;
  }

  /**
   * Supporters found at `now` that arrived at `arrivedAt` (epoch ms, from their support timestamps;
   * a time after `now` counts as `now`). Finding none changes nothing: time passing is applied on reading.
   */
  record(now: number, arrivedAt: readonly number[]): void {
    this.#count(now, arrivedAt, 1);
  }

  /**
   * Supporters found earlier whose support has since failed (dropped from the list before payout), as
   * found at `now`, with the times they arrived: taken back out of every sum they were counted in, so
   * the rates are those of the supporters that stay. A run of supports that fail (the page-shift
   * fault's insert-and-fail pairs, a card-testing run) is not a busy stretch to spend reads on.
   */
  forget(now: number, arrivedAt: readonly number[]): void {
    this.#count(now, arrivedAt, -1);
  }

  /**
   * What the first read of the list showed of the time before watching started: its supporters' arrival
   * times, as read at `now`. The read covers the time since its oldest support (every later one is on it). With them the rates ({@link rates}, `withTimeBefore`) cover the time before too, so a cold
   * start's rate is not its first minutes extrapolated to the hour: a few supporters in the first
   * minute of a quiet night are a few supporters, not a busy hour (the warm-up's estimate,
   * n / (1 - e^(-t/τ)), makes three in the first minute 14 an hour ten minutes in), and a list that was
   * busy before the bot came is not taken for a quiet one. The pace still waits for
   * RATES_KNOWN_AFTER_MS watched before any lull (fundings-pace.ts): a bot installed at a launch must
   * not read its first minutes as the quiet day before. Not the level's or the hours' (their exposure
   * is the time watched). Only on a rhythm that has counted nothing yet.
   */
  recordBefore(now: number, arrivedAt: readonly number[]): void {
    if (this.#recordedAny() || this.#hasView() || arrivedAt.length === 0) return;
    this.#text = undefined;
    const at = Math.max(this.#at, now);
    this.#decayTo(at);
    for (const raw of arrivedAt) {
      const t = Math.min(raw, at);
      this.#ratesFrom = Math.min(this.#ratesFrom, t);
      this.#beforeRecent += recentWeight(at - t);
      this.#beforeBurst += burstWeight(at - t);
    }
  }

  /** The rate now (supporters per ms): what the User key's signal windows read (signal-interleave.ts). */
  rate(now: number): number {
    return this.rates(now).recent;
  }

  /**
   * The rates at `now`: from what was found while watching, or, `withTimeBefore`, with the first read's
   * view of the time before ({@link recordBefore}). The key alone's pace reads the latter (fundings-pace.ts);
   * the User key's signal windows the former: a signal read every few seconds finds a rate that rose at
   * the install within a read, where the view of a quiet day before would hold the estimate down for
   * half an hour (the whole day with the User key, a flat day starting at midnight after a quiet one:
   * fundings p95 10.7 -> 11.5 s).
   */
  rates(now: number, withTimeBefore = false): RhythmRates {
    const dt = Math.max(0, now - this.#at);
    const watched = Math.max(0, now - this.#since);
    const watchedMs = LEVEL_TAU_MS * (1 - Math.exp(-watched / LEVEL_TAU_MS));
    const before = withTimeBefore && this.#hasView();
    // Started from nothing, a weighted rate has reached only 1 - e^(-t/τ) of the rate it measures.
    const counted = Math.max(1, now - (before ? this.#ratesFrom : this.#since));
    const warmed = (tau: number) => 1 - Math.exp(-counted / tau);
    const recent = this.#recent + (before ? this.#beforeRecent : 0);
    const burst = this.#burst + (before ? this.#beforeBurst : 0);
    return {
      recent: (recent * Math.exp(-dt / RECENT_TAU_MS)) / warmed(RECENT_TAU_MS),
      burst: (burst * Math.exp(-dt / BURST_TAU_MS)) / warmed(BURST_TAU_MS),
      level: watchedMs > 0 ? (this.#level * Math.exp(-dt / LEVEL_TAU_MS)) / watchedMs : 0,
      watchedMs,
    };
  }

  /**
   * The usual rate (supporters per ms) of each UTC hour of the day, or undefined until every hour
   * has been watched at least once (a whole day): before that the hours still unseen say nothing.
   */
  hourlyRates(now: number): Float64Array | undefined {
    if (now - this.#since < DAY_MS) return undefined;
    const exposure = this.#exposureAt(now);
    const decay = Math.exp(-Math.max(0, now - this.#at) / PROFILE_TAU_MS);
    return Float64Array.from(this.#hours, (count, h) => (count * decay) / Math.max(1, exposure[h] ?? 0));
  }

  /**
   * Takes over a stored rhythm (the project state's, after a restart or when this replica gains the
   * project's lease) when it is newer than what this one has counted. Returns whether it did.
   */
  adopt(text: string | undefined): boolean {
    if (text === undefined || text === this.#text) return false;
    const stored = ArrivalRhythm.fromText(text);
    if (stored === undefined || (stored.#at <= this.#at && this.#recordedAny())) return false;
    this.#at = stored.#at;
    this.#since = Math.min(stored.#since, this.#since);
    // The view of the time before comes with the sums it was counted in: the stored one's, or none.
    this.#ratesFrom = Math.min(stored.#ratesFrom, this.#since);
    this.#recent = stored.#recent;
    this.#burst = stored.#burst;
    this.#beforeRecent = stored.#beforeRecent;
    this.#beforeBurst = stored.#beforeBurst;
    this.#level = stored.#level;
    this.#hours.set(stored.#hours);
    this.#exposure = null;
    this.#text = text;
    return true;
  }

  /**
   * The rhythm as compact text for the project state: times in seconds (base 36), rates per hour
   * and counts to three significant digits. About 150 bytes with a full day's profile.
   */
  toText(): string {
    if (this.#text !== undefined) return this.#text;
    const n = (v: number) => (v === 0 ? '' : String(Number(v.toPrecision(3))));
    const s = (ms: number) => Math.round(ms / 1000).toString(36);
    this.#text = [
      TEXT_VERSION,
      s(this.#at),
      s(this.#since),
      n(this.#recent * HOUR_MS),
      n(this.#burst * HOUR_MS),
      n(this.#level),
      Array.from(this.#hours, n).join(','),
      // Only while the first read's view of the time before reaches further back than watching.
      ...(this.#hasView()
        ? [s(this.#ratesFrom), n(this.#beforeRecent * HOUR_MS), n(this.#beforeBurst * HOUR_MS)]
        : []),
    ].join(';');
    return this.#text;
  }

  /** The rhythm a {@link toText} wrote, or undefined for text this version cannot read. */
  static fromText(text: string): ArrivalRhythm | undefined {
    const [version, at, since, recent, burst, level, hours, ratesFrom, beforeRecent, beforeBurst] =
      text.split(';');
    if (version !== TEXT_VERSION || hours === undefined) return undefined;
    const counts = hours.split(',');
    const num = (v: string | undefined) => (v === undefined || v === '' ? 0 : Number(v));
    const values = [
      num(recent),
      num(burst),
      num(level),
      num(beforeRecent),
      num(beforeBurst),
      ...counts.map(num),
    ];
    const atMs = Number.parseInt(at ?? '', 36) * 1000;
    const sinceMs = Number.parseInt(since ?? '', 36) * 1000;
    if (counts.length !== 24 || !values.every((v) => Number.isFinite(v) && v >= 0)) return undefined;
    const ratesFromMs = ratesFrom === undefined ? sinceMs : Number.parseInt(ratesFrom, 36) * 1000;
    if (!Number.isFinite(atMs) || !Number.isFinite(sinceMs) || sinceMs > atMs) return undefined;
    if (!Number.isFinite(ratesFromMs) || ratesFromMs > sinceMs) return undefined;
    const rhythm = new ArrivalRhythm(atMs);
    rhythm.#since = sinceMs;
    rhythm.#ratesFrom = ratesFromMs;
    rhythm.#recent = num(recent) / HOUR_MS;
    rhythm.#burst = num(burst) / HOUR_MS;
    rhythm.#beforeRecent = num(beforeRecent) / HOUR_MS;
    rhythm.#beforeBurst = num(beforeBurst) / HOUR_MS;
    rhythm.#level = num(level);
    rhythm.#hours.set(counts.map(num));
    return rhythm;
  }

  /** Adds (`sign` 1) or takes back (-1) the supporters that arrived at `arrivedAt`, as of `now`; no sum goes below 0. */
  #count(now: number, arrivedAt: readonly number[], sign: 1 | -1): void {
    if (arrivedAt.length === 0) return;
    this.#text = undefined;
    const at = Math.max(this.#at, now);
    this.#decayTo(at);
    const add = (sum: number, weight: number) => Math.max(0, sum + sign * weight);
    for (const raw of arrivedAt) {
      const t = Math.min(raw, at);
      const age = at - t;
      this.#recent = add(this.#recent, recentWeight(age));
      this.#burst = add(this.#burst, burstWeight(age));
      // Arrivals from before watching started (a late success deep in the list) are not the level's.
      if (t >= this.#since) this.#level = add(this.#level, Math.exp(-age / LEVEL_TAU_MS));
      const hour = new Date(t).getUTCHours();
      this.#hours[hour] = add(this.#hours[hour] ?? 0, Math.exp(-age / PROFILE_TAU_MS));
    }
  }

  /** Whether the first read's view reaches further back than watching ({@link recordBefore}). */
  #hasView(): boolean {
    return this.#ratesFrom < this.#since;
  }

  #recordedAny(): boolean {
    return this.#recent > 0 || this.#level > 0 || this.#hours.some((c) => c > 0);
  }

  #decayTo(at: number): void {
    const dt = at - this.#at;
    if (dt <= 0) return;
    this.#recent *= Math.exp(-dt / RECENT_TAU_MS);
    this.#burst *= Math.exp(-dt / BURST_TAU_MS);
    this.#beforeRecent *= Math.exp(-dt / RECENT_TAU_MS);
    this.#beforeBurst *= Math.exp(-dt / BURST_TAU_MS);
    this.#level *= Math.exp(-dt / LEVEL_TAU_MS);
    const keep = Math.exp(-dt / PROFILE_TAU_MS);
    for (let h = 0; h < 24; h++) this.#hours[h] = (this.#hours[h] ?? 0) * keep;
    this.#at = at;
  }

  /** How long each UTC hour has been watched since `#since`, weighted like the counts (as of `now`). */
  #exposureAt(now: number): Float64Array {
    const hour = Math.floor(now / HOUR_MS);
    if (this.#exposure?.hour === hour) return this.#exposure.ms;
    const ms = new Float64Array(24);
    // Hour by hour back from now, at most four time constants (older hours weigh under 2 %).
    const from = Math.max(this.#since, now - 4 * PROFILE_TAU_MS);
    for (let end = now; end > from; ) {
      const start = Math.max(from, Math.floor((end - 1) / HOUR_MS) * HOUR_MS);
      const h = new Date(start).getUTCHours();
      // ∫ e^(-(now - s)/τ) ds over [start, end]
      ms[h] =
        (ms[h] ?? 0) +
        PROFILE_TAU_MS *
          (Math.exp(-(now - end) / PROFILE_TAU_MS) - Math.exp(-(now - start) / PROFILE_TAU_MS));
      end = start;
    }
    this.#exposure = { hour, ms };
    return ms;
  }
}
