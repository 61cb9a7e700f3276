import type { HistoryPoint } from './read-model.js';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** What the last day's supports say about the time to the next target. */
export type Pace =
  /** Too little history (under an hour) to say anything honest. */
  | { readonly kind: 'unknown' }
  /** Funding did not grow within the covered hours. */
  | { readonly kind: 'none'; readonly hours: number }
  | {
      readonly kind: 'rate';
      /** Funding per day at the observed rate. */
      readonly perDay: number;
      /** The goal, or after it the next milestone (150 %, 200 %...). Absent when there is no goal. */
      readonly target?: {
        readonly kind: 'goal' | 'milestone';
        readonly percent: number;
        readonly etaMs: number;
      };
    };

/**
 * Estimates the pace from funding snapshots of the last `windowMs` (24 hours):
 * the rate between the oldest snapshot in the window and the current figure,
 * extrapolated to the remaining amount. Pure, so it can be tested with numbers.
 */
export function estimatePace(
  history: readonly HistoryPoint[],
  current: { readonly at: number; readonly funding: number },
  goal: number,
  windowMs = dayMs,
): Pace {
  const since = current.at - windowMs;
  const base = history.find((p) => p.at >= since && p.at <= current.at);
  if (!base) return { kind: 'unknown' };
  const spanMs = current.at - base.at;
  if (spanMs < hourMs) return { kind: 'unknown' };
  const gained = current.funding - base.funding;
  if (gained <= 0) return { kind: 'none', hours: Math.min(24, Math.max(1, Math.round(spanMs / hourMs))) };
  const perMs = gained / spanMs;
  const perDay = perMs * dayMs;
  if (goal <= 0) return { kind: 'rate', perDay };
  const target = nextTarget(current.funding, goal);
  const remaining = (goal * target.percent) / 100 - current.funding;
  return { kind: 'rate', perDay, target: { ...target, etaMs: Math.max(0, remaining / perMs) } };
}

/** What the pace is measured against: the goal, and once it is reached the next 50 % step (150 %, 200 %...). */
export interface PaceTarget {
  readonly kind: 'goal' | 'milestone';
  readonly percent: number;
}

/** The one rule for the pace's target, shared by /funding and the goal-pace alerts. `goal` must be positive. */
export function nextTarget(funding: number, goal: number): PaceTarget {
  if (funding < goal) return { kind: 'goal', percent: 100 };
  return { kind: 'milestone', percent: (Math.floor(((funding / goal) * 100) / 50) + 1) * 50 };
}

/** The funding at `at` as the history knows it: the last snapshot at or before it (snapshots are taken on change). */
export function fundingAt(history: readonly HistoryPoint[], at: number): HistoryPoint | undefined {
  let found: HistoryPoint | undefined;
  for (const point of history) {
    if (point.at > at) break;
    found = point;
  }
  return found;
}
