import { describe, expect, it } from 'vitest';
import { type EngineHarness, lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

/** Reads of the project itself (not its lists). */
const projectReads = (harness: EngineHarness, from = 0) =>
  harness.sim.requests.slice(from).filter((r) => r.path.endsWith(`/project/${lc}`)).length;

describe('the project re-read after new supporters', () => {
  it('is the project feed poll taken early: under a tight budget project reads stay within the plan', async () => {
    const h = await startHarness({ limits: { perMinute: 120, perDay: 2_000 } });
    await step(h);
    const planned = (await h.engine.readModel.status(lc)).feeds.find((f) => f.feed === 'project')?.intervalMs;
    expect(planned).toBeGreaterThan(2 * 60_000); // the budget is tight: far above the 90 s target
    const from = h.sim.requests.length;
    const hour = 60 * 60_000;
    for (let t = 0; t < hour; t += 20_000) {
      h.project.addSupporter({ amount: 1 });
      await runFor(h, 20_000);
    }
    const interval = (await h.engine.readModel.status(lc)).feeds.find(
      (f) => f.feed === 'project',
    )?.intervalMs;
    // At most one read per planned interval, plus the one taken early.
    expect(projectReads(h, from)).toBeLessThanOrEqual(
      Math.ceil(hour / Math.min(planned ?? 0, interval ?? 0)) + 1,
    );
    // Supporter notices still carry the total after (from the early read) where one was made.
    const supporters = h.recorder.ofType('supporter');
    expect(supporters.length).toBeGreaterThan(100);
    expect(supporters.some((s) => s.fundingTotal !== null)).toBe(true);
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
  });
});
