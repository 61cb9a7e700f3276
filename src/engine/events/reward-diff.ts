import { z } from 'zod';
import { type Incentive, isPubliclyVisible, isSoldOut } from '../../api/index.js';
import { lowStockMaxThreshold } from '../../domain/reward-stock.js';

/** What the engine remembers of a reward between polls: enough to see transitions. */
export interface RewardFlags {
  readonly soldOut: boolean;
  readonly unlocked: boolean;
  readonly sold: number;
  /** How often it sold out so far: part of the event id, so a restock and a second sell-out is a new event. */
  readonly soldOutCount: number;
  /** Left of a limited reward; null without a limit; absent in state written before low-stock notices. */
  readonly remaining?: number | null;
  /** How many low-stock drops were reported so far: part of their event ids. */
  readonly stockDrops?: number;
}

export const rewardFlagsSchema: z.ZodType<RewardFlags> = z.object({
  soldOut: z.boolean(),
  unlocked: z.boolean(),
  sold: z.number().int(),
  soldOutCount: z.number().int().nonnegative(),
  remaining: z.number().int().nullable().optional(),
  stockDrops: z.number().int().nonnegative().optional(),
}) as z.ZodType<RewardFlags>;

export type RewardTransition =
  | {
      readonly kind: 'sold-out' | 'restocked';
      readonly reward: Incentive;
      /** The n-th sell-out of this reward (1-based): a restock ends the n-th. */
      readonly count: number;
    }
  | { readonly kind: 'unlocked'; readonly reward: Incentive }
  | {
      readonly kind: 'low-stock';
      readonly reward: Incentive;
      /** The n-th reported drop of this reward (1-based). */
      readonly count: number;
      readonly remainingBefore: number;
      readonly remaining: number;
    };

/** Left of a reward, or null when it has no limit (the API puts a placeholder in quantity_remaining then). */
export function remainingOf(reward: Incentive): number | null {
  return reward.quantity_total > 0 ? Math.max(0, reward.quantity_remaining) : null;
}

/**
 * Compares the reward list with the stored flags. Only rewards that pass the
 * spec's visibility rule are announced: a hidden reward's sell-out or unlock is
 * not public. A reward seen for the first time only gets a baseline: one sold out
 * at first sight and available later is back in stock, one available at first
 * sight never is. A drop of a limited reward's count to at most
 * {@link lowStockMaxThreshold} (and not to none: that is the sell-out) is reported
 * for the channels' low-stock thresholds (src/domain/reward-stock.ts).
 */
export function diffRewards(
  previous: Readonly<Record<string, RewardFlags>> | null,
  rewards: readonly Incentive[],
): { transitions: RewardTransition[]; flags: Record<string, RewardFlags> } {
  const flags: Record<string, RewardFlags> = {};
  const transitions: RewardTransition[] = [];
  for (const reward of rewards) {
    const before = previous?.[String(reward.id)];
    const soldOut = isSoldOut(reward);
    const visible = isPubliclyVisible(reward);
    const remaining = remainingOf(reward);
    let soldOutCount = before?.soldOutCount ?? (soldOut ? 1 : 0);
    let stockDrops = before?.stockDrops ?? 0;
    if (before !== undefined && soldOut && !before.soldOut) {
      soldOutCount += 1;
      if (visible) transitions.push({ kind: 'sold-out', reward, count: soldOutCount });
    }
    if (before !== undefined && !soldOut && before.soldOut && visible) {
      transitions.push({ kind: 'restocked', reward, count: soldOutCount });
    }
    if (before !== undefined && reward.is_unlocked && !before.unlocked && visible) {
      transitions.push({ kind: 'unlocked', reward });
    }
    const remainingBefore = before?.remaining;
    if (
      typeof remainingBefore === 'number' &&
      remaining !== null &&
      !soldOut &&
      remaining > 0 &&
      remaining < remainingBefore &&
      remaining <= lowStockMaxThreshold &&
      visible
    ) {
      stockDrops += 1;
      transitions.push({ kind: 'low-stock', reward, count: stockDrops, remainingBefore, remaining });
    }
    flags[String(reward.id)] = {
      soldOut,
      unlocked: reward.is_unlocked,
      sold: reward.quantity_sold,
      soldOutCount,
      remaining,
      stockDrops,
    };
  }
  return { transitions, flags };
}
