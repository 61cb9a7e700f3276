import { uniformPollerPlan } from '../src/engine/schedule/latency-bound.js';
import { seededRandom } from '../src/lib/random.js';
import { minuteDistribution, planCampaignDay } from '../src/simulator/index.js';
import { campaignSeed, campaignStart, defaultCampaign, wholeDayStart } from './campaign-day.js';
import type { BenchSection, Figures } from './section.js';
import { type LatencySummary, summarize } from './stats.js';

const day = 86_400_000;
const minute = 60_000;
/** The whole day's seed (bench/campaign-day.ts): the same supporters at the same moments. */
const seed = campaignSeed;

/**
 * What the key alone could reach if it knew the future (docs/latency-bound.md, "What no schedule
 * of the key alone reaches"). The Pro whole day's supporters (the same seeded plan as `wholeDay`)
 * and the uniform poller's fundings reads for the day (the bound's N_f); each schedule spends
 * exactly those reads, and a supporter waits from its arrival to the next read. The oracles are
 * told the curve the supporters are drawn from, minute by minute (launch spike, daily rhythm):
 * - `sqrtRate`: reads at a rate proportional to the square root of the arrival rate, the schedule
 *   with the least mean wait for a known rate (minimise the integral of rate/(2 reads) for a fixed
 *   number of reads);
 * - `quietCut`: even reads where the rate is above half its day's mean, a sixth of them elsewhere:
 *   the p95 gives up the quiet 5 %.
 * No polling cost, pages or faults: the waits are the schedule's alone, for the three alike.
 */
export function oracleSchedules(profile: 'launch-day' | 'flat'): Figures {
  const plan = planCampaignDay({
    start: wholeDayStart,
    launchAt: campaignStart,
    random: seededRandom(seed),
    supporters: defaultCampaign.supporters,
    wallPosts: defaultCampaign.wallPosts,
    blogPosts: defaultCampaign.blogPosts,
    profile,
  });
  const arrivals = plan.actions.flatMap((a) => (a.kind === 'support' ? [a.at] : []));
  const reads = Math.round(
    day / uniformPollerPlan({ keyRequests: 8_500, publicRequests: 850, periodMs: day }).fundingsIntervalMs,
  );
  const cumulative = minuteDistribution(wholeDayStart, day, profile, campaignStart);
  const rate = Array.from(cumulative, (c, i) => c - (i === 0 ? 0 : (cumulative[i - 1] ?? 0)));
  const mean = rate.reduce((sum, r) => sum + r, 0) / rate.length;
  const uniform = waits(
    arrivals,
    readsAt(() => 1, reads),
  );
  const sqrtRate = waits(
    arrivals,
    readsAt((i) => Math.sqrt(rate[i] ?? 0), reads),
  );
  const quietCut = waits(
    arrivals,
    readsAt((i) => ((rate[i] ?? 0) > mean / 2 ? 1 : 1 / 6), reads),
  );
  const ratios = (s: LatencySummary) => ({
    p95VsUniform: Math.round((s.p95 / uniform.p95) * 100) / 100,
    meanVsUniform: Math.round((s.mean / uniform.mean) * 100) / 100,
  });
  return {
    reads,
    uniform: { p95Ms: uniform.p95, meanMs: uniform.mean },
    sqrtRate: { p95Ms: sqrtRate.p95, meanMs: sqrtRate.mean, ...ratios(sqrtRate) },
    quietCut: { p95Ms: quietCut.p95, meanMs: quietCut.mean, ...ratios(quietCut) },
  };
}

/** `reads` read times over the day, spaced in proportion to 1 / weight(minute). */
function readsAt(weight: (minuteIndex: number) => number, reads: number): number[] {
  const minutes = day / minute;
  const weights = Array.from({ length: minutes }, (_, i) => weight(i));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const times: number[] = [];
  let due = 0.5;
  let spent = 0;
  for (let i = 0; i < minutes; i++) {
    const share = ((weights[i] ?? 0) / total) * reads;
    // Reads spread evenly inside the minute at that minute's density.
    while (spent + share >= due) {
      times.push(wholeDayStart + (i + (due - spent) / share) * minute);
      due += 1;
    }
    spent += share;
  }
  return times;
}

function waits(arrivals: readonly number[], reads: readonly number[]): LatencySummary {
  const sorted = [...arrivals].sort((a, b) => a - b);
  const result: number[] = [];
  let next = 0;
  for (const at of sorted) {
    while (next < reads.length && (reads[next] ?? 0) < at) next += 1;
    result.push((reads[next] ?? wholeDayStart + day) - at);
  }
  return summarize(result);
}

/** `oracleSchedules`: the whole days' schedules that know the future, for the key alone. */
export const oracleSchedulesSection: BenchSection = {
  name: 'oracle-schedules',
  async run() {
    return { oracleSchedules: { dailyCurve: oracleSchedules('launch-day'), flat: oracleSchedules('flat') } };
  },
};
