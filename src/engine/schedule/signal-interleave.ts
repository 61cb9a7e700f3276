/**
 * Interleaving the key's fundings polls with the User key's change signal (user-signal.ts).
 *
 * The signal reads the project's counts every U ms on the user key's own budget; a read that saw
 * no change is a look at the fundings list as good as a poll, and one that saw them move asks for
 * a poll at once. Left to themselves, the key's polls (every K) landed at random against those
 * reads, and the wait for the next look of either kind was the shorter of two independent waits:
 * on the Pro whole day (K about 14 s, U 19 s) the supporter p95 stayed at 15.2 s, no better than
 * without the signal. Placed evenly between the reads, the looks are spaced about 1/(1/K + 1/U).
 *
 * Each read opens a window to the next: the key gets U/K polls' worth of credit for it (its plan's
 * rate), thinned on a quiet list ({@link FULL_POLLS_FROM_ARRIVALS_PER_READ}), and the whole polls
 * of the credit are spread evenly over the window; the fraction carries to the next window.
 */

/** The signal's last read of one project's counts, and the key polls planned until its next read. */
export interface SignalWindow {
  /** Epoch ms of the read. */
  readonly at: number;
  /** The signal's interval: its next read is about this much later. */
  readonly intervalMs: number;
  /** Key polls spread evenly over this window. */
  readonly polls: number;
  /** The fraction of a poll carried to the next window. */
  readonly credit: number;
}

/** A signal silent for this many of its intervals is not counted on: the key's own schedule returns. */
const ALIVE_FOR_INTERVALS = 3;

/**
 * Below this many supporters per signal read the key's polls between reads thin out in proportion:
 * most of them would find nothing, and a read that sees the counts move polls at once anyway, so
 * no supporter waits more than one read interval. What they leave of the key's budget goes to the
 * busy hours (the re-plans read the headers): a quiet night spent a quarter of the Pro day's budget.
 */
export const FULL_POLLS_FROM_ARRIVALS_PER_READ = 0.15;

/**
 * The window a read at `at` opens, given the previous one, the key's planned fundings interval and
 * the project's recent arrival rate (supporters per ms, arrival-rhythm.ts).
 */
export function openSignalWindow(
  previous: SignalWindow | undefined,
  read: { readonly at: number; readonly intervalMs: number },
  keyIntervalMs: number,
  arrivalsPerMs: number,
): SignalWindow {
  const share = Math.min(1, (arrivalsPerMs * read.intervalMs) / FULL_POLLS_FROM_ARRIVALS_PER_READ);
  const credit = (previous?.credit ?? 0) + (share * read.intervalMs) / Math.max(1, keyIntervalMs);
  const polls = Math.floor(credit);
  return { at: read.at, intervalMs: read.intervalMs, polls, credit: credit - polls };
}

/**
 * The polls a change signal asked for outside the plan (a read that saw the counts move polls at
 * once) in the key's current budget day, as an average rate: the planner takes it off the capacity
 * it spreads, as if the rest of the day asks for as many. Unplanned, a busy day's signals spent the
 * key's day budget before its reset and the last supporters and wall posts waited for it. An
 * average over the day, not a recent rate: a launch hour's signals are paid by the whole day, not
 * by the next few hours' polls.
 */
export class SignalPolls {
  #count = 0;
  #resetAt = Number.NaN;

  record(dayResetAt: number, requests: number): void {
    this.#roll(dayResetAt);
    this.#count += requests;
  }

  /**
   * Requests per ms, averaged over the budget day so far (at least its first hour). From the day's
   * start, not this process's: after a restart in a launch rush, its first hour's signals were
   * taken for the whole day's rate and cut the next hours' polls by half.
   */
  rate(now: number, dayResetAt: number): number {
    this.#roll(dayResetAt);
    return this.#count / Math.max(3_600_000, now - (dayResetAt - 86_400_000));
  }

  /** A new budget day: its average starts over. */
  #roll(dayResetAt: number): void {
    if (dayResetAt === this.#resetAt) return;
    this.#count = 0;
    this.#resetAt = dayResetAt;
  }
}

/**
 * Epoch ms of the key's next fundings poll after `now` in the signal's window (the next of its
 * evenly spread slots, or the first slot after the next read when none is left), or undefined when
 * there is no live signal and the key's own interval applies.
 */
export function nextPollInWindow(window: SignalWindow | undefined, now: number): number | undefined {
  if (window === undefined || now - window.at > ALIVE_FOR_INTERVALS * window.intervalMs) return undefined;
  const step = window.intervalMs / (window.polls + 1);
  for (let i = 1; i <= window.polls; i++) {
    const slot = window.at + i * step;
    if (slot > now) return slot;
  }
  // The next read opens a new window (and re-plans this); if it does not come, a poll still does.
  return Math.max(now + 1, window.at + window.intervalMs + step);
}
