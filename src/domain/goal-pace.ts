import { fundingAt, nextTarget, type PaceTarget } from './pace.js';
import type { HistoryPoint } from './read-model.js';

const hourMs = 3_600_000;

/** How much history the alert reads, and how much of it it needs before it says anything. */
export interface GoalPaceOptions {
  /** The recent pace is the funding of this window (default 24 hours). */
  readonly windowMs: number;
  /** Supports in the window below which "on track" is never said: a handful of supports is luck, not a pace. */
  readonly minSupporters: number;
}

export const defaultGoalPaceOptions: GoalPaceOptions = { windowMs: 24 * hourMs, minSupporters: 5 };

/**
 * Hysteresis: "on track" once the pace would bring 110 % of what the target still needs, "behind" again only
 * below 90 %. A pace hovering at what is needed says nothing instead of flapping.
 */
export const onTrackAbove = 1.1;
export const behindBelow = 0.9;

/** No alert in the last hour before the end: there is nothing left to act on. */
const lastCallMs = hourMs;

export type PaceVerdict = 'on-track' | 'behind';

/** What the alert remembers per project and channel (a few bytes in the store). */
export interface PaceWatchState {
  /** The target the verdict is about (percent of the goal: 100, then 150, 200...). */
  readonly targetPercent: number;
  /** The campaign end the verdict was judged against. */
  readonly deadline: number;
  /** The last verdict (stored from the first time the data sufficed). */
  readonly verdict: PaceVerdict;
  /** Alerts said so far, for every target and deadline: the next alert's number (its delivery id). */
  readonly alerts: number;
}

export interface GoalPaceInput {
  /** Funding snapshots, oldest first, reaching back at least `windowMs` before `now` when the history has them. */
  readonly history: readonly HistoryPoint[];
  readonly now: number;
  readonly funding: number;
  readonly supporters: number;
  readonly goal: number;
  /** Epoch ms the campaign ends. */
  readonly deadline: number;
}

/** What the window's pace says, for the alert's words. */
export interface PaceReading {
  readonly target: PaceTarget;
  /** The amount the target stands for. */
  readonly targetAmount: number;
  /**
   * Where the funding ends at the window's pace: the slower and the faster of its two halves, so the alert
   * gives the spread the recent supports really show, never one figure.
   */
  readonly range: { readonly low: number; readonly high: number };
  /** Funding a day over the whole window, and what the target still needs a day until the end. */
  readonly perDay: number;
  readonly neededPerDay: number;
  readonly supportersInWindow: number;
}

export type GoalPaceJudgement =
  /** Nothing to judge: no goal, the end passed or is within the hour, or the data is too thin (why). */
  | { readonly kind: 'silent'; readonly why: 'no-goal' | 'ended' | 'short-history' | 'few-supporters' }
  | {
      readonly kind: 'judged';
      readonly reading: PaceReading;
      /** The state to store: the verdict, and the alert count raised when this is an alert. */
      readonly state: PaceWatchState;
      /** Set when the verdict crossed since the stored one (same target and end): tell the channel once. */
      readonly alert?: PaceVerdict;
    };

/**
 * The one rule of the goal-pace alerts: whether the recent pace brings the target (the goal, after it the next
 * milestone: {@link nextTarget}, the rule /funding's pace uses) by the campaign's end, and whether that verdict
 * crossed since the last one. The first verdict for a target and end is stored silently (only a crossing is
 * news); a new target or end starts over, silently. Pure: the scheduler gives it the figures and the stored state.
 */
export function judgeGoalPace(
  input: GoalPaceInput,
  previous: PaceWatchState | undefined,
  options: GoalPaceOptions = defaultGoalPaceOptions,
): GoalPaceJudgement {
  const { history, now, funding, supporters, goal, deadline } = input;
  if (goal <= 0) return { kind: 'silent', why: 'no-goal' };
  const remainingMs = deadline - now;
  if (remainingMs <= lastCallMs) return { kind: 'silent', why: 'ended' };
  const base = fundingAt(history, now - options.windowMs);
  const middle = fundingAt(history, now - options.windowMs / 2);
  if (!base || !middle) return { kind: 'silent', why: 'short-history' };

  const target = nextTarget(funding, goal);
  const targetAmount = (goal * target.percent) / 100;
  const halfMs = options.windowMs / 2;
  const halves = [(middle.funding - base.funding) / halfMs, (funding - middle.funding) / halfMs];
  const perMs = (funding - base.funding) / options.windowMs;
  const ratio = (Math.max(0, perMs) * remainingMs) / (targetAmount - funding);
  const reading: PaceReading = {
    target,
    targetAmount,
    range: {
      low: funding + Math.max(0, Math.min(...halves)) * remainingMs,
      high: funding + Math.max(0, ...halves) * remainingMs,
    },
    perDay: perMs * 24 * hourMs,
    neededPerDay: ((targetAmount - funding) / remainingMs) * 24 * hourMs,
    supportersInWindow: Math.max(0, supporters - base.supporters),
  };

  const same =
    previous !== undefined && previous.targetPercent === target.percent && previous.deadline === deadline
      ? previous.verdict
      : undefined;
  const verdict: PaceVerdict =
    same === 'on-track'
      ? ratio < behindBelow
        ? 'behind'
        : 'on-track'
      : same === 'behind'
        ? ratio >= onTrackAbove
          ? 'on-track'
          : 'behind'
        : ratio >= 1
          ? 'on-track'
          : 'behind';
  if (verdict === 'on-track' && reading.supportersInWindow < options.minSupporters) {
    return { kind: 'silent', why: 'few-supporters' };
  }
  const alert = same !== undefined && verdict !== same ? verdict : undefined;
  const alerts = (previous?.alerts ?? 0) + (alert ? 1 : 0);
  return {
    kind: 'judged',
    reading,
    state: { targetPercent: target.percent, deadline, verdict, alerts },
    ...(alert ? { alert } : {}),
  };
}
