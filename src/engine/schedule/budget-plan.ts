/** The budget figures a plan needs (the API client's RateBudget has them). */
export interface BudgetFigures {
  readonly dayLimit: number;
  readonly dayRemaining: number;
  /** Epoch ms. */
  readonly dayResetAt: number;
  readonly minuteLimit: number;
}

/** What one feed would like: its ideal interval at its current activity and how many requests a poll costs. */
export interface FeedDemand {
  readonly feed: string;
  /** Share of a scarce budget relative to the other feeds. */
  readonly weight: number;
  /**
   * The shortest interval this feed may get: the politeness floor (1 s by default),
   * or an operator's explicit target interval. Not a wish: the feed gets its weighted
   * share of the budget and only stops at this floor.
   */
  readonly targetIntervalMs: number;
  /** Expected requests per poll (1 for an idle list, more while pages are busy, 2 for the two blog lists). */
  readonly requestsPerPoll: number;
  /**
   * The feed has a latency target and `targetIntervalMs` is the interval that meets it: it is
   * granted that first, before the weighted sharing, while such feeds together take at most
   * {@link TARGETS_MAX_SHARE} of the capacity (beyond it they share by weight like the others).
   */
  readonly meetsTarget?: boolean;
  /**
   * The interval that meets the feed's latency target (wall 60 s, blog 300 s): granted first like
   * `meetsTarget`, but a floor only of that first grant: what the other feeds leave (they reached their
   * own floors, a big plan) lets this feed go faster, down to `targetIntervalMs`.
   */
  readonly targetMs?: number;
}

/** At most this share of a plan's capacity goes to feeds' latency targets before the weighted sharing. */
export const TARGETS_MAX_SHARE = 0.5;

/**
 * What one key may spend a millisecond right now by its own budget: the day's remainder less the reserve,
 * over the time to its reset, and at most its minute limit less the reserve. The plan's capacity, and the
 * keys' pace the process ceiling is compared with (process-ceiling.ts).
 */
export function keyPacePerMs(budget: BudgetFigures, now: number, reserveShare: number): number {
  const timeLeft = Math.max(60_000, budget.dayResetAt - now);
  const spendable = Math.max(0, budget.dayRemaining - reserveShare * budget.dayLimit);
  const perMinuteCap = (budget.minuteLimit * (1 - reserveShare)) / 60_000;
  return Math.min(spendable / timeLeft, perMinuteCap);
}

/**
 * Spreads what may be spent of the day budget until its reset over the feeds.
 *
 * Spendable = day remaining - reserve (reserveShare of the day limit, kept for
 * slash commands), divided by the time to the reset; also at most
 * (1 - reserveShare) of the minute limit. Feeds with a latency target (`meetsTarget`)
 * get the rate that meets it first; the rest of the capacity is water-filled by
 * weight: every feed gets its weighted share, down to its floor interval (where it
 * stops for politeness) and what it does not take there is shared by the others. So
 * a bigger plan buys proportionally lower latency, and the reserve stays untouched. Re-planned after every
 * poll with fresh headers, so overspending early simply slows the rest of the day.
 * With nothing spendable, every feed waits for the reset.
 */
export function planIntervals(input: {
  readonly budget: BudgetFigures;
  readonly now: number;
  readonly reserveShare: number;
  readonly demands: readonly FeedDemand[];
  /**
   * A ceiling on the whole plan's rate in requests per ms whatever the budget allows:
   * the credential's share of the process-wide ceiling (see replan.ts). Default none.
   */
  readonly maxRatePerMs?: number;
  /**
   * Requests per ms the credential spends outside the feeds' polls (one-off sweeps, fills and
   * searches, as a rate over hours): taken off the capacity before it is shared, at most half
   * of it. Default 0.
   */
  readonly overheadPerMs?: number;
}): Map<string, number> {
  const { budget, now, reserveShare, demands } = input;
  const timeLeft = Math.max(60_000, budget.dayResetAt - now);
  const base = Math.min(
    keyPacePerMs(budget, now, reserveShare),
    input.maxRatePerMs ?? Number.POSITIVE_INFINITY,
  );
  // The one-offs take at most half: a burst of searches slows the polls, never stops them.
  let capacity = base - Math.min(input.overheadPerMs ?? 0, base / 2);
  const result = new Map<string, number>();
  if (capacity <= 0) {
    for (const d of demands) result.set(d.feed, timeLeft);
    return result;
  }
  const wants = new Map(demands.map((d) => [d.feed, d.requestsPerPoll / d.targetIntervalMs]));
  const granted = new Map<string, number>();
  let open = [...demands];
  // Targets first: the wall and blog get what meets their latency target, the rest is shared.
  const firstWant = (d: FeedDemand) =>
    d.targetMs !== undefined ? d.requestsPerPoll / d.targetMs : (wants.get(d.feed) ?? 0);
  const targeted = demands.filter((d) => d.meetsTarget === true || d.targetMs !== undefined);
  const targetedWant = targeted.reduce((sum, d) => sum + firstWant(d), 0);
  let faster: FeedDemand[] = [];
  if (targeted.length > 0 && targetedWant <= TARGETS_MAX_SHARE * capacity) {
    for (const d of targeted) granted.set(d.feed, firstWant(d));
    capacity -= targetedWant;
    open = open.filter((d) => !targeted.includes(d));
    faster = targeted.filter((d) => d.targetMs !== undefined);
  }
  capacity = waterFill(open, capacity, wants, granted);
  // What the others left (they reached their floors: a big plan) lets the targeted feeds go faster.
  if (faster.length > 0 && capacity > 1e-15) {
    const extra = new Map(faster.map((d) => [d.feed, Math.max(0, (wants.get(d.feed) ?? 0) - firstWant(d))]));
    const more = new Map<string, number>();
    waterFill(faster, capacity, extra, more);
    for (const [feed, rate] of more) granted.set(feed, (granted.get(feed) ?? 0) + rate);
  }
  for (const d of demands) {
    const rate = granted.get(d.feed) ?? 0;
    result.set(d.feed, rate > 0 ? Math.max(d.targetIntervalMs, d.requestsPerPoll / rate) : timeLeft);
  }
  return result;
}

/**
 * Shares `capacity` among `open` by weight, each up to what it `wants`; what a satisfied feed does not take goes to
 * the others (at most one round per feed). Writes each feed's rate into `granted`; returns the capacity left.
 */
function waterFill(
  feeds: readonly FeedDemand[],
  capacity: number,
  wants: ReadonlyMap<string, number>,
  granted: Map<string, number>,
): number {
  let open = [...feeds];
  let left = capacity;
  while (open.length > 0 && left > 1e-15) {
    const weightSum = open.reduce((sum, d) => sum + d.weight, 0);
    const satisfied = open.filter((d) => (left * d.weight) / weightSum >= (wants.get(d.feed) ?? 0));
    if (satisfied.length === 0) {
      for (const d of open) granted.set(d.feed, (left * d.weight) / weightSum);
      return 0;
    }
    for (const d of satisfied) {
      const want = wants.get(d.feed) ?? 0;
      granted.set(d.feed, want);
      left -= want;
    }
    open = open.filter((d) => !satisfied.includes(d));
  }
  return left;
}
