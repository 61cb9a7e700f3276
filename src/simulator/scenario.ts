/**
 * Playback of a campaign plan: applies its actions to one SimProject as a clock
 * advances and counts what applied. Separate from campaign-plan.ts so planning
 * stays pure data and playback is the only part that touches a project.
 */
import type { CampaignAction, CampaignPlan } from './campaign-plan.js';
import { type SimProject, SimulatorUsageError } from './sim-project.js';
import type { FundingKey } from './types.js';

/** What has been applied so far. */
export interface ScenarioProgress {
  readonly applied: number;
  readonly remaining: number;
  /** Actions that could not apply (e.g. a failure after payoff); they are counted, not retried. */
  readonly skipped: number;
  readonly supports: number;
  readonly failures: number;
  readonly wallPosts: number;
  readonly blogPosts: number;
  readonly subscribers: number;
}

export interface Scenario {
  readonly plan: CampaignPlan;
  /** Applies every action due at or before `epochMs`, in order. Timestamps are the actions' own times. */
  advanceTo(epochMs: number): ScenarioProgress;
  /** When the next action is due, or null when done. */
  readonly nextAt: number | null;
  readonly done: boolean;
  readonly progress: ScenarioProgress;
  /** Funding key of the plan's support number `seq`, once applied. */
  supportKey(seq: number): FundingKey | undefined;
}

/** Plays a plan against one project. Works with a ManualClock: set the clock, then advanceTo(clock.now()). */
export function createScenario(project: SimProject, plan: CampaignPlan): Scenario {
  let cursor = 0;
  const keys = new Map<number, FundingKey>();
  const counts = {
    applied: 0,
    skipped: 0,
    supports: 0,
    failures: 0,
    wallPosts: 0,
    blogPosts: 0,
    subscribers: 0,
  };
  const progress = (): ScenarioProgress => ({ ...counts, remaining: plan.actions.length - cursor });

  const applySupport = (action: Extract<CampaignAction, { kind: 'support' }>): FundingKey => {
    const person = {
      displayName: action.displayName,
      firstName: action.firstName,
      lastName: action.lastName,
      city: action.city,
      country: action.country,
      at: action.at,
    };
    const orderable = action.withReward ? project.orderableRewardIds() : [];
    const rewardId = orderable[Math.floor(action.rewardPick * orderable.length)];
    if (rewardId === undefined) {
      const amount = action.withReward ? 25 + action.extraAmount : action.extraAmount;
      return project.addSupporter({ ...person, amount });
    }
    const price = project.rewardPrice(rewardId);
    for (const quantity of [action.quantity, 1]) {
      try {
        return project.addSupporter({
          ...person,
          rewardIds: Array(quantity).fill(rewardId),
          amount: price * quantity + action.extraAmount,
        });
      } catch (error) {
        if (!(error instanceof SimulatorUsageError) || quantity === 1) throw error;
      }
    }
    throw new SimulatorUsageError('unreachable');
  };

  const apply = (action: CampaignAction): boolean => {
    switch (action.kind) {
      case 'support':
        if (project.isPaidOut) return false;
        keys.set(action.seq, applySupport(action));
        counts.supports++;
        return true;
      case 'fail-support': {
        const key = keys.get(action.supportSeq);
        if (key === undefined || project.isPaidOut) return false;
        project.failSupport(key, action.at);
        counts.failures++;
        return true;
      }
      case 'wall-post':
        project.addWallPost({ authorName: action.authorName, message: action.message, at: action.at });
        counts.wallPosts++;
        return true;
      case 'blog-post':
        project.addBlogPost({
          title: action.title,
          text: action.text,
          type: action.type,
          supporterOnly: action.supporterOnly,
          at: action.at,
        });
        counts.blogPosts++;
        return true;
      case 'subscribe':
        project.addSubscriber({
          at: action.at,
          newsSubscribed: action.newsSubscribed,
          ...(action.withAccount ? {} : { user: null }),
        });
        counts.subscribers++;
        return true;
      case 'status':
        project.setStatus(action.status, action.at);
        return true;
      case 'payoff':
        project.payoff(action.at);
        return true;
    }
  };

  return {
    plan,
    advanceTo(epochMs) {
      for (
        let action = plan.actions[cursor];
        action !== undefined && action.at <= epochMs;
        action = plan.actions[cursor]
      ) {
        cursor++;
        let ok: boolean;
        try {
          ok = apply(action);
        } catch (error) {
          if (!(error instanceof SimulatorUsageError)) throw error;
          ok = false;
        }
        if (ok) counts.applied++;
        else counts.skipped++;
      }
      return progress();
    },
    get nextAt() {
      return plan.actions[cursor]?.at ?? null;
    },
    get done() {
      return cursor >= plan.actions.length;
    },
    get progress() {
      return progress();
    },
    supportKey(seq) {
      return keys.get(seq);
    },
  };
}
