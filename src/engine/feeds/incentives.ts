import type { Incentive } from '../../api/index.js';
import { rewardEvents } from '../events/feed-events.js';
import { diffRewards } from '../events/reward-diff.js';
import type { EngineContext, RequestTag } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';
import { request } from '../schedule/feed-request.js';
import { commit, currentState, recordHistory } from '../state/project-state-store.js';

/** Rewards above this many are not read (20 pages): no real project has that many. */
const MAX_REWARDS = 2000;

/** The incentives feed's poll: every reward (one request per 100), sold-out and unlocked notices. */
export async function pollIncentives(ctx: EngineContext, rt: ProjectRuntime, tag: RequestTag): Promise<void> {
  const state = await currentState(ctx, rt);
  const rewards: Incentive[] = [];
  for (let offset = 0; ; ) {
    const page = await request(ctx, rt, tag, () => rt.api.incentivesPage({ limit: 100, offset }));
    rewards.push(...page.items);
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.meta.total || offset >= MAX_REWARDS) break;
  }
  const now = ctx.clock.now();
  rt.rewardsCache = { value: rewards, fetchedAt: now };
  const diff = diffRewards(state.rewards, rewards);
  const currency = rt.projectCache?.value.currency ?? rewards[0]?.project?.currency ?? '';
  const events = rewardEvents(
    { project: rt.config.linkCaption, detectedAt: now, currency },
    diff.transitions,
  );
  await commit(
    ctx,
    rt,
    { ...state, rewards: diff.flags, readAt: { ...state.readAt, incentives: now } },
    events,
  );
  await recordHistory(ctx, rt, now);
}
