import { afterEach, describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../src/lib/random.js';
import {
  createScenario,
  demoLinkCaption,
  hostileTexts,
  planCampaignDay,
  type Simulator,
  startLiveCampaign,
  startSimulator,
} from '../../src/simulator/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { get, t0 } from './helpers.js';

const start = Date.UTC(2026, 2, 2, 9, 0, 0); // 10:00 CET launch
const hour = 3_600_000;

/** The plan of a busy campaign day (1,500 supporters, 200 wall posts, 3 blog posts) from seed 3. */
const busyDay = () =>
  planCampaignDay({ start, random: seededRandom(3), supporters: 1500, wallPosts: 200, blogPosts: 3 });

describe('planCampaignDay', () => {
  const plan = busyDay();
  const count = (kind: string) => plan.actions.filter((a) => a.kind === kind).length;

  it('plans exactly the requested counts, sorted by time, within the day', () => {
    expect([count('support'), count('wall-post'), count('blog-post'), count('fail-support')]).toEqual([
      1500, 200, 3, 15,
    ]);
    expect(count('subscribe')).toBe(300);
    expect(plan.counts).toEqual({
      supporters: 1500,
      failures: 15,
      wallPosts: 200,
      blogPosts: 3,
      subscribers: 300,
    });
    const times = plan.actions.map((a) => a.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t >= start && t < start + 24 * hour)).toBe(true);
  });

  it('is heavy in the launch hour and quiet at night', () => {
    const supportsIn = (from: number) =>
      plan.actions.filter((a) => a.kind === 'support' && a.at >= from && a.at < from + hour).length;
    const launch = supportsIn(start);
    const night = supportsIn(start + 18 * hour); // 04:00 CET
    const evening = supportsIn(start + 10 * hour); // 20:00 CET
    expect(launch).toBeGreaterThan(evening);
    expect(evening).toBeGreaterThan(night * 4);
  });

  it('fails only planned supports, after they happened', () => {
    const supportAt = new Map(
      plan.actions.flatMap((a) => (a.kind === 'support' ? [[a.seq, a.at] as const] : [])),
    );
    for (const a of plan.actions) {
      if (a.kind === 'fail-support')
        expect(a.at).toBeGreaterThanOrEqual(supportAt.get(a.supportSeq) ?? Infinity);
    }
  });

  it('is deterministic for a seed and mixes in hostile names only when asked', () => {
    const again = busyDay();
    expect(again.actions).toEqual(plan.actions);
    const names = (p: typeof plan) => p.actions.flatMap((a) => (a.kind === 'support' ? [a.displayName] : []));
    expect(names(plan).some((n) => hostileTexts.includes(n))).toBe(false);
    const hostile = planCampaignDay({ start, random: seededRandom(3), supporters: 300, hostileRate: 0.2 });
    expect(names(hostile).filter((n) => hostileTexts.includes(n)).length).toBeGreaterThan(20);
    expect(names(plan).some((n) => /[äöüÄÖÜßéøłçğ]/.test(n))).toBe(true);
  });
});

describe('createScenario on a ManualClock', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('plays a whole day: the ground truth matches the plan and the API', async () => {
    const clock = new ManualClock(start - hour);
    sim = await startSimulator({ clock });
    const project = sim.project(demoLinkCaption);
    const before = project.snapshot();
    const plan = planCampaignDay({ start, random: seededRandom(5), supporters: 1500, finish: 'payoff' });
    const scenario = createScenario(project, plan);

    clock.set(start + 6 * hour);
    const halfway = scenario.advanceTo(clock.now());
    expect(halfway.supports).toBeGreaterThan(0);
    expect(halfway.remaining).toBeGreaterThan(0);
    for (let t = clock.now(); !scenario.done; t += 10 * 60_000) {
      clock.set(t);
      scenario.advanceTo(t);
    }
    const progress = scenario.progress;
    expect([
      progress.supports,
      progress.failures,
      progress.wallPosts,
      progress.blogPosts,
      progress.skipped,
    ]).toEqual([1500, 15, 200, 3, 0]);
    const after = project.snapshot();
    expect(after.fundings).toHaveLength(before.fundings.length + 1500 - 15);
    expect(after.orders).toHaveLength(after.fundings.length);
    const sum = after.orders.reduce((total, o) => total + o.total_amount, 0);
    expect(after.project.current_funding).toBeCloseTo(sum, 2);
    expect(after.project.process_status).toBe('payoff');
    const history = after.history.map((e) => e.type);
    expect(history).toContain('goal-reached');
    expect(history).toContain('reward-sold-out');
    expect(history.filter((t) => t === 'reward-unlocked').length).toBeGreaterThanOrEqual(2);

    const key = sim.issueProjectKey(demoLinkCaption);
    const fundings = await get(sim, `/project/${demoLinkCaption}/fundings?limit=100`, key);
    expect(fundings.body.meta.total).toBe(after.fundings.length);
    expect(fundings.body.data[0]).toEqual(after.fundings.at(-1));
  });
});

describe('startLiveCampaign', () => {
  it('adds activity on the clock and stops without leaving timers', async () => {
    const clock = new ManualClock(t0);
    const sim = await startSimulator({ clock });
    try {
      const project = sim.project(demoLinkCaption);
      const historyBefore = project.history.length;
      const live = startLiveCampaign(sim, demoLinkCaption, { ratePerMinute: 60 });
      for (let i = 0; i < 50; i++) {
        clock.advance(10_000);
        // The event: the campaign has acted and parked on the clock again (not a guessed tick).
        await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1), { interval: 1 });
      }
      expect(live.actions).toBeGreaterThan(20);
      expect(project.history.length).toBeGreaterThan(historyBefore);
      await live.stop();
      expect(clock.pendingSleepers).toBe(0);
    } finally {
      await sim.close();
    }
  });
});
