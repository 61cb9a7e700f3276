import { uniformPollerPlan } from '../src/engine/schedule/latency-bound.js';
import { defaultRateLimits } from '../src/simulator/index.js';
import { defaultCampaign, runCampaignDay, wholeDayStart } from './campaign-day.js';
import type { BenchSection, Figures } from './section.js';
import { RssPeak } from './stats.js';

/** The simulator's plans (src/simulator/rate-limiter.ts): requests a day. */
export const planDayLimits = { pro: 10_000, premium: 50_000, enterprise: 100_000 } as const;
export type BenchPlan = keyof typeof planDayLimits;

/** The engine's default reserve for commands (engine-settings.ts). */
const reserveShare = 0.15;

/**
 * The supporter p95 if ALL the usable key budget (the day limit minus the reserve,
 * spread over a whole day) went to fundings: one poll every 86,400 s / usable,
 * an entry waits on average half of that, at the 95th percentile 95% of it.
 */
export function physicalLimitP95Ms(plan: BenchPlan): number {
  const usable = planDayLimits[plan] * (1 - reserveShare);
  return Math.round((0.95 * 86_400_000) / usable);
}

/**
 * `boundP95Ms`: the best supporter p95 any uniform poller reaches over a whole UTC day with
 * the plan's key budget and the per-IP public budget (each less the reserve) while meeting
 * wall <= 60 s and blog <= 300 s (docs/latency-bound.md; the formula is uniformPollerPlan's).
 */
export function boundP95Ms(plan: BenchPlan): number {
  const split = uniformPollerPlan({
    keyRequests: planDayLimits[plan] * (1 - reserveShare),
    publicRequests: defaultRateLimits.public.perDay * (1 - reserveShare),
    periodMs: 86_400_000,
  });
  return Math.round(split.fundingsP95Ms);
}

/** What `plans.<plan>` holds: the launch-day figures that compare plans. */
export function planFigures(f: Figures, plan: BenchPlan): Figures {
  const d = (f['details'] ?? {}) as Figures;
  return {
    budgetPct: f['budgetPct'],
    // Each budget on its own: the key's, the per-IP public one and (with a User key) the user's.
    budgetPctByCredential: f['budgetPctByCredential'],
    http429: f['http429'],
    duplicates: f['duplicates'],
    misses: f['misses'],
    spurious: f['spurious'],
    latencyMs: f['latencyMs'],
    latencyInclRestartMs: f['latencyInclRestartMs'],
    physicalLimitP95Ms: physicalLimitP95Ms(plan),
    boundP95Ms: boundP95Ms(plan),
    simulatedHours: d['simulatedHours'],
  };
}

/**
 * `plans.premium` and `plans.enterprise` over the whole UTC day (`plans.pro` is the main campaign
 * day: bench/run.ts adds it), and `plans.proWithUserKey`: the whole Pro launch day again with the owner's User
 * API key as a change signal (target supporter p95 <= 12 s, each budget <= 90%).
 */
export const plansSection: BenchSection = {
  name: 'plans',
  async run() {
    const plans: Figures = {};
    const withUserKey = await runCampaignDay([], new RssPeak(), {
      ...defaultCampaign,
      plan: 'pro',
      naive: false,
      userKey: true,
    });
    plans['proWithUserKey'] = {
      ...planFigures(withUserKey, 'pro'),
      userSignal: (withUserKey['details'] as Figures | undefined)?.['userSignal'],
    };
    // The bigger plans over the whole UTC day from midnight, the launch at 07:00 (as wholeDay.dailyCurve).
    for (const plan of ['premium', 'enterprise'] as const) {
      const figures = await runCampaignDay([], new RssPeak(), {
        ...defaultCampaign,
        plan,
        dayStart: wholeDayStart,
        hours: 24,
        naive: false,
      });
      plans[plan] = { ...planFigures(figures, plan), basis: 'whole UTC day from midnight, launch at 07:00' };
    }
    return { plans };
  },
};
