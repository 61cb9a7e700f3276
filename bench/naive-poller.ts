import { parseProjectKey } from '../src/api/index.js';
import {
  type CampaignPlan,
  createScenario,
  demoLinkCaption,
  type Simulator,
} from '../src/simulator/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { virtualClockClient } from './virtual-clock-client.js';

/**
 * The pollers fundbot is compared with: every cycle it re-reads the project and
 * the first page (`firstPageOnly`, the fair baseline) or every page of every list (rewards, fundings, wall, both blog types), at a
 * fixed cadence. It runs the same scenario on its own simulator (same seed) and
 * an Enterprise key, so it is never throttled and its count is what it would need.
 */
export async function runNaivePoller(options: {
  start: number;
  end: number;
  intervalMs: number;
  /** Read only the first page of each list (the fair baseline); default false: every page. */
  firstPageOnly?: boolean;
  /** Per-list intervals (the engine's planned ones for the fair baseline); default `intervalMs` for all. */
  listIntervalsMs?: Partial<Record<'project' | 'incentives' | 'fundings' | 'wall' | 'blog', number>>;
  startSimulator: (clock: ManualClock) => Promise<Simulator>;
  plan: CampaignPlan;
  onCycle?: () => void;
}): Promise<{ requests: number; supportersAtEnd: number }> {
  const clock = new ManualClock(options.start);
  const sim = await options.startSimulator(clock);
  const key = parseProjectKey(sim.issueProjectKey(demoLinkCaption, { plan: 'enterprise' }));
  const api = virtualClockClient(sim.url, clock);
  const project = api.project(demoLinkCaption, key);
  const scenario = createScenario(sim.project(demoLinkCaption), options.plan);
  let requests = 0;
  const readAll = async (
    page: (offset: number) => Promise<{ items: unknown[]; meta: { total: number } }>,
  ) => {
    for (let offset = 0; ; ) {
      requests += 1;
      const result = await page(offset).catch(() => null);
      if (result === null || result.items.length === 0) return;
      offset += result.items.length;
      if (offset >= result.meta.total || options.firstPageOnly === true) return;
    }
  };
  const every = (list: 'project' | 'incentives' | 'fundings' | 'wall' | 'blog') =>
    options.listIntervalsMs?.[list] ?? options.intervalMs;
  const reads = {
    project: async () => {
      requests += 1;
      await project.get().catch(() => null);
    },
    incentives: () => readAll((offset) => project.incentivesPage({ limit: 100, offset })),
    fundings: () => readAll((offset) => project.fundingsPage({ limit: 100, offset })),
    wall: () => readAll((offset) => project.wallPage({ limit: 100, offset })),
    blog: async () => {
      await readAll((offset) => project.blogPage({ blogType: 'text', limit: 100, offset }));
      await readAll((offset) => project.blogPage({ blogType: 'story', limit: 100, offset }));
    },
  };
  const dueAt = new Map(Object.keys(reads).map((list) => [list as keyof typeof reads, options.start]));
  for (let t = options.start; t < options.end; t = Math.min(...dueAt.values())) {
    clock.set(t);
    scenario.advanceTo(t);
    for (const [list, due] of dueAt) {
      if (due > t) continue;
      await reads[list]();
      dueAt.set(list, t + every(list));
    }
    options.onCycle?.();
  }
  const supportersAtEnd = sim.project(demoLinkCaption).supporterCount;
  await api.close();
  await sim.close();
  return { requests, supportersAtEnd };
}
