/**
 * The reward watch rule (issue 32, item 3c): a member asks for ONE direct message when a sold-out reward can be
 * ordered again (`/watch reward <id>`). Only the member's platform user id is kept, with the channel they asked in
 * (its language) and the reward; the watch ends when the message went out, could not go out, or `/unwatch`.
 */

/** How many rewards one member may watch in one workspace. */
export const rewardWatchesPerUser = 10;
/** How many watches one workspace may hold in all (one store record per workspace stays small). */
export const rewardWatchesPerWorkspace = 500;

/** One member's watch of one reward. */
export interface RewardWatch {
  readonly userId: string;
  /** The channel the member asked in: the DM speaks its language. */
  readonly channelId: string;
  readonly project: string;
  readonly rewardId: number;
}

/** Whether two watches are of the same member and reward. */
export function sameWatch(a: RewardWatch, b: Omit<RewardWatch, 'channelId'>): boolean {
  return a.userId === b.userId && a.project === b.project && a.rewardId === b.rewardId;
}
