import { blogPostKey, fundingKey, parseProjectKey, wallPostKey } from '../src/api/index.js';
import { uniformPollerPlan } from '../src/engine/schedule/latency-bound.js';
import {
  type CampaignPlan,
  createScenario,
  demoLinkCaption,
  type Simulator,
} from '../src/simulator/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { groundTruth } from './campaign-truth.js';
import { type LatencySummary, summarize } from './stats.js';
import { virtualClockClient } from './virtual-clock-client.js';

/** What the fair uniform poller measured. */
export interface UniformPollerFigures {
  readonly requests: number;
  readonly keyRequests: number;
  readonly publicRequests: number;
  /** Fundings reads sent (a 5xx fault included). */
  readonly fundingsRequests: number;
  readonly http429: number;
  readonly latencyMs: { fundings: LatencySummary; wall: LatencySummary; blog: LatencySummary };
  readonly misses: number;
  readonly intervalsMs: Record<string, number>;
}

type List = 'fundings' | 'wall' | 'blogText' | 'blogStory' | 'incentives' | 'project';

/**
 * The fair baseline (issue 22): a real poller that reads the FIRST page of every list at
 * fixed, uniform intervals, with as many key and public requests as the engine spent, or (issue
 * 33) as many fundings requests. Its split is the best uniform one (uniformPollerPlan: wall and blog
 * at their targets, the project on the public budget, the rest to fundings), not the engine's counts. It runs the
 * same scenario on the same simulator set-up with a key of the same plan, and its latency
 * is measured against the simulator's ground truth like the engine's.
 */
export async function runUniformPoller(options: {
  readonly start: number;
  readonly end: number;
  readonly plan: 'pro' | 'premium' | 'enterprise';
  readonly keyRequests: number;
  readonly publicRequests: number;
  /**
   * Fundings reads over the period: the basis "equal fundings requests" (the engine's own count). The
   * other lists keep the split's intervals (their targets); without it fundings get every key request
   * the split leaves ("equal project-key requests").
   */
  readonly fundingsRequests?: number;
  readonly startSimulator: (clock: ManualClock) => Promise<Simulator>;
  readonly scenario: CampaignPlan;
}): Promise<UniformPollerFigures> {
  const { start, end } = options;
  const clock = new ManualClock(start);
  const sim = await options.startSimulator(clock);
  const key = parseProjectKey(sim.issueProjectKey(demoLinkCaption, { plan: options.plan }));
  const api = virtualClockClient(sim.url, clock);
  const project = api.project(demoLinkCaption, key);
  const publicProject = api.project(demoLinkCaption);
  const scenario = createScenario(sim.project(demoLinkCaption), options.scenario);
  const split = uniformPollerPlan({
    keyRequests: options.keyRequests,
    publicRequests: options.publicRequests,
    periodMs: end - start,
  });
  const every: Record<List, number> = {
    fundings:
      options.fundingsRequests === undefined
        ? split.fundingsIntervalMs
        : (end - start) / options.fundingsRequests,
    wall: split.wallIntervalMs,
    blogText: split.blogIntervalMs,
    blogStory: split.blogIntervalMs,
    incentives: split.incentivesIntervalMs,
    project: split.projectIntervalMs,
  };
  /** Entry key -> epoch ms the poller first saw it (the first read of a list is the baseline). */
  const firstSeen = new Map<string, number>();
  const baseline = new Set<string>();
  const see = (keys: readonly string[], first: boolean) => {
    for (const k of keys) {
      if (firstSeen.has(k) || baseline.has(k)) continue;
      if (first) baseline.add(k);
      else firstSeen.set(k, clock.now());
    }
  };
  const page = { limit: 100, offset: 0 };
  const reads: Record<List, (first: boolean) => Promise<unknown>> = {
    fundings: async (first) => see((await project.fundingsPage(page)).items.map(fundingKey), first),
    wall: async (first) => see((await project.wallPage(page)).items.map(wallPostKey), first),
    blogText: async (first) =>
      see((await project.blogPage({ ...page, blogType: 'text' })).items.map(blogPostKey), first),
    blogStory: async (first) =>
      see((await project.blogPage({ ...page, blogType: 'story' })).items.map(blogPostKey), first),
    incentives: () => project.incentivesPage(page),
    project: () => (split.projectOnPublic ? publicProject.get() : project.get()),
  };
  const lists = Object.keys(reads) as List[];
  const dueAt = new Map(lists.map((list) => [list, start]));
  const done = new Set<List>();
  let requests = 0;
  for (let t = start; t < end; t = Math.min(...dueAt.values())) {
    clock.set(t);
    scenario.advanceTo(t);
    for (const list of lists) {
      const due = dueAt.get(list) ?? end;
      if (due > t) continue;
      requests += 1;
      // A failed read (a 5xx fault) is simply lost: the next one is at its fixed time.
      await reads[list](!done.has(list)).catch(() => undefined);
      done.add(list);
      dueAt.set(list, due + every[list]);
    }
  }
  const logged = sim.requests.filter((r) => r.at >= start && r.at < end);
  const truth = groundTruth(sim, start, baseline);
  const latency = { fundings: [] as number[], wall: [] as number[], blog: [] as number[] };
  let misses = 0;
  for (const feed of ['fundings', 'wall', 'blog'] as const) {
    const happened = feed === 'fundings' ? truth.supporters : feed === 'wall' ? truth.wall : truth.blog;
    for (const [k, at] of happened) {
      const seen = firstSeen.get(k);
      if (seen === undefined) misses += 1;
      else latency[feed].push(seen - at);
    }
  }
  await api.close();
  await sim.close();
  return {
    requests,
    keyRequests: logged.filter((r) => r.status < 500 && r.credential === 'project').length,
    publicRequests: logged.filter((r) => r.status < 500 && r.credential === 'none').length,
    fundingsRequests: logged.filter((r) => r.path.endsWith('/fundings')).length,
    http429: logged.filter((r) => r.status === 429).length,
    latencyMs: {
      fundings: summarize(latency.fundings),
      wall: summarize(latency.wall),
      blog: summarize(latency.blog),
    },
    misses,
    intervalsMs: Object.fromEntries(lists.map((list) => [list, Math.round(every[list])])),
  };
}
