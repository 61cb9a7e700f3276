import { pathToFileURL } from 'node:url';
import {
  type CampaignOptions,
  defaultCampaign,
  plan,
  runCampaignDay,
  startCampaignSimulator,
  wholeDayStart,
} from './campaign-day.js';
import { type BenchPlan, boundP95Ms } from './plans.js';
import type { BenchSection, Figures } from './section.js';
import { type LatencySummary, RssPeak } from './stats.js';
import { runUniformPoller, type UniformPollerFigures } from './uniform-poller.js';

const day = 86_400_000;

function ratio(a: number, b: number): number {
  return Math.round((a / Math.max(1, b)) * 100) / 100;
}

/**
 * One campaign day on the honest basis (issue 22): the key's day starts at UTC midnight with
 * its normal budget and the engine runs all 24 hours, the launch at 07:00 inside it. Then the
 * fair uniform first-page poller runs the same scenario on the same simulator set-up with the
 * engine's own key and public request counts, and both latencies are reported side by side.
 */
export async function runWholeDay(
  profile: 'launch-day' | 'flat',
  benchPlan: BenchPlan = 'pro',
  withUniform = true,
  userKey = false,
): Promise<Figures> {
  const options: CampaignOptions = {
    ...defaultCampaign,
    plan: benchPlan,
    dayStart: wholeDayStart,
    hours: 24,
    profile,
    naive: false,
    userKey,
  };
  const f = await runCampaignDay([], new RssPeak(), options);
  const d = f['details'] as Figures;
  const latency = f['latencyMs'] as Record<'fundings' | 'wall' | 'blog', LatencySummary>;
  const budgets = f['budgetPctByCredential'] as Record<string, number>;
  const bound = boundP95Ms(benchPlan);
  // Both pollers are compared on the same supporters: the scenario's. The page-shift fault adds supporters
  // only in the engine's world (the uniform poller reads no deeper page to set it off), each arriving just
  // after one of the engine's own reads; they count for misses and duplicates, and their latency is reported
  // apart (`faultMadeSupporters`), with the ratio on all supporters beside it.
  const bySource = d['fundingsLatencyBySource'] as {
    scenario: LatencySummary;
    fault: LatencySummary & { count: number };
  };
  const scored = bySource.scenario;
  const engine = {
    supporterP50Ms: latency.fundings.p50,
    supporterP95Ms: latency.fundings.p95,
    supporterMeanMs: latency.fundings.mean,
    wallP95Ms: latency.wall.p95,
    blogP95Ms: latency.blog.p95,
    budgetPctByCredential: budgets,
    budgetPctMax: Math.max(...Object.values(budgets)),
    // The owner's User key as a change signal (its own budget, `budgetPctByCredential.user`): the
    // uniform poller cannot use it (it lists no supporters), so it gets the key's and public counts.
    withUserKey: userKey,
    userSignal: d['userSignal'],
    requests: f['requests'],
    // The engine's own count per feed, of the process that ran after the restart (07:35 to midnight).
    requestsByFeedAfterRestart: d['requestsByFeed'],
    http429: f['http429'],
    duplicates: f['duplicates'],
    misses: f['misses'],
    spurious: f['spurious'],
    boundP95Ms: bound,
    p95VsBound: ratio(latency.fundings.p95, bound),
    scoredOn: "the scenario's supporters, as the uniform poller's world has them",
    scenarioSupporterP95Ms: scored.p95,
    scenarioSupporterMeanMs: scored.mean,
    faultMadeSupporters: {
      count: bySource.fault.count,
      p95Ms: bySource.fault.p95,
      meanMs: bySource.fault.mean,
    },
  };
  if (!withUniform) return engine;
  const uniformRun = (fundingsRequests?: number) =>
    runUniformPoller({
      start: wholeDayStart,
      end: wholeDayStart + day,
      plan: benchPlan,
      keyRequests: Number(d['keyRequests']),
      publicRequests: Number(d['publicRequests']),
      ...(fundingsRequests !== undefined ? { fundingsRequests } : {}),
      // The same simulator set-up; without the page-shift fault, which only matters past the first page.
      startSimulator: (clock) => startCampaignSimulator(clock, options, false),
      scenario: plan(options),
    });
  const beside = (uniform: UniformPollerFigures) => ({
    uniformPollerP50Ms: uniform.latencyMs.fundings.p50,
    uniformPollerP95Ms: uniform.latencyMs.fundings.p95,
    uniformPollerMeanMs: uniform.latencyMs.fundings.mean,
    p95VsUniform: ratio(scored.p95, uniform.latencyMs.fundings.p95),
    meanVsUniform: ratio(scored.mean, uniform.latencyMs.fundings.mean),
    p95VsUniformAllSupporters: ratio(latency.fundings.p95, uniform.latencyMs.fundings.p95),
    meanVsUniformAllSupporters: ratio(latency.fundings.mean, uniform.latencyMs.fundings.mean),
    uniformPoller: {
      wallP95Ms: uniform.latencyMs.wall.p95,
      blogP95Ms: uniform.latencyMs.blog.p95,
      fundingsRequests: uniform.fundingsRequests,
      keyRequests: uniform.keyRequests,
      publicRequests: uniform.publicRequests,
      http429: uniform.http429,
      misses: uniform.misses,
      intervalsMs: uniform.intervalsMs,
    },
  });
  // Issue 33: the uniform poller reads the fundings list as often as the engine did over the day (its
  // other lists at their targets), so the ratios say what the engine's spacing of the same reads is
  // worth. Beside them the issue 22 basis: the engine's key requests, split the uniform way.
  const fundingsRequests = Number(d['fundingsRequests']);
  return {
    ...engine,
    fundingsRequests,
    fundingsFirstPageRequests: d['fundingsFirstPageRequests'],
    basis: 'equal fundings requests',
    ...beside(await uniformRun(fundingsRequests)),
    atEqualKeyRequests: { basis: 'equal project-key requests', ...beside(await uniformRun()) },
  };
}

/** The whole days the section runs, by their place in `wholeDay`. */
const wholeDays = {
  dailyCurve: () => runWholeDay('launch-day', 'pro', true, true),
  flat: () => runWholeDay('flat', 'pro', true, true),
  'keyOnly.dailyCurve': () => runWholeDay('launch-day'),
  'keyOnly.flat': () => runWholeDay('flat'),
} as const;
type WholeDayName = keyof typeof wholeDays;

/** Runs the named whole days (all by default) in order into `wholeDay`'s shape. */
export async function runWholeDays(
  names: readonly WholeDayName[] = Object.keys(wholeDays) as WholeDayName[],
) {
  const wholeDay: Figures & { keyOnly: Figures } = { keyOnly: {} };
  for (const name of names) {
    const figures = await wholeDays[name]();
    if (name.startsWith('keyOnly.')) wholeDay.keyOnly[name.slice('keyOnly.'.length)] = figures;
    else wholeDay[name] = figures;
  }
  return wholeDay;
}

/**
 * `wholeDay.dailyCurve` and `wholeDay.flat` (Pro, each with its uniform poller): the engine as the
 * README sets a team up, with the project owner's User key as a change signal (the other budget the
 * spec grants: 5,000 reads a day of every own project's counts). `wholeDay.keyOnly` runs both days
 * again on the project key alone, each beside its own uniform poller. `boundP95Ms` and
 * `uniformPollerP95Ms` (the daily-curve day's) at the top level.
 */
export const wholeDaySection: BenchSection = {
  name: 'whole-day',
  async run() {
    const wholeDay = await runWholeDays();
    return {
      wholeDay,
      uniformPollerP95Ms: (wholeDay['dailyCurve'] as Figures)['uniformPollerP95Ms'],
      boundP95Ms: boundP95Ms('pro'),
    };
  },
};

// `npx tsx bench/whole-day.ts [keyOnly.dailyCurve ...]`: this section alone (on a virtual clock, so its
// figures do not depend on the machine's load), one JSON line.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2);
  const unknown = names.filter((n) => !(n in wholeDays));
  if (unknown.length > 0)
    throw new Error(
      `unknown whole day ${unknown.join(', ')}: name some of ${Object.keys(wholeDays).join(', ')}`,
    );
  const wholeDay = await runWholeDays(names.length > 0 ? (names as WholeDayName[]) : undefined);
  process.stdout.write(`${JSON.stringify({ wholeDay })}\n`);
}
