import type { HistoryPoint } from './ports.js';

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
  const percentNow = (current.funding / goal) * 100;
  const target =
    current.funding < goal
      ? { kind: 'goal' as const, percent: 100 }
      : { kind: 'milestone' as const, percent: (Math.floor(percentNow / 50) + 1) * 50 };
  const remaining = (goal * target.percent) / 100 - current.funding;
  return { kind: 'rate', perDay, target: { ...target, etaMs: Math.max(0, remaining / perMs) } };
}
