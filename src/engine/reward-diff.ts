import { z } from 'zod';
import { type Incentive, isPubliclyVisible, isSoldOut } from '../api/index.js';

/** What the engine remembers of a reward between polls: enough to see transitions. */
export interface RewardFlags {
  readonly soldOut: boolean;
  readonly unlocked: boolean;
  readonly sold: number;
  /** How often it sold out so far: part of the event id, so a restock and a second sell-out is a new event. */
  readonly soldOutCount: number;
}

export const rewardFlagsSchema: z.ZodType<RewardFlags> = z.object({
  soldOut: z.boolean(),
  unlocked: z.boolean(),
  sold: z.number().int(),
  soldOutCount: z.number().int().nonnegative(),
});

export interface RewardTransition {
  readonly kind: 'sold-out' | 'unlocked';
  readonly reward: Incentive;
  /** For sold-out: the n-th sell-out of this reward (1-based). */
  readonly count: number;
}

/**
 * Compares the reward list with the stored flags. Only rewards that pass the
 * spec's visibility rule are announced: a hidden reward's sell-out or unlock is
 * not public. A reward seen for the first time only gets a baseline.
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
    let soldOutCount = before?.soldOutCount ?? (soldOut ? 1 : 0);
    if (before !== undefined && soldOut && !before.soldOut) {
      soldOutCount += 1;
      if (visible) transitions.push({ kind: 'sold-out', reward, count: soldOutCount });
    }
    if (before !== undefined && reward.is_unlocked && !before.unlocked && visible) {
      transitions.push({ kind: 'unlocked', reward, count: 1 });
    }
    flags[String(reward.id)] = {
      soldOut,
      unlocked: reward.is_unlocked,
      sold: reward.quantity_sold,
      soldOutCount,
    };
  }
  return { transitions, flags };
}
