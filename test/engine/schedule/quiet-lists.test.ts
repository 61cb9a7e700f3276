import { describe, expect, it } from 'vitest';
import { targetIntervalMs } from '../../../src/engine/schedule/latency-bound.js';
import { type EngineHarness, lc, requestsTo, runFor, step, t0, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const intervalOf = async (harness: EngineHarness, feed: string) =>
  (await harness.engine.readModel.status(lc)).feeds.find((f) => f.feed === feed)?.intervalMs;

describe('wall and blog intervals after a fresh start', () => {
  it('meet their latency targets and no faster, fundings get the rest, quiet or not', {
    timeout: 60_000,
  }, async () => {
    const h = await startHarness({
      project: {
        wallPosts: [{ message: 'hello', at: t0 - 60_000 }],
        blogPosts: [{ title: 'Hi', text: 'x', type: 'text', supporterOnly: false, at: t0 - 60_000 }],
      },
    });
    await step(h);
    const fundings = (await intervalOf(h, 'fundings')) ?? 0;
    // The interval that meets each target (latency-bound.ts), however much budget is left.
    expect(await intervalOf(h, 'wall')).toBeCloseTo(targetIntervalMs('wall') ?? 0, -2);
    expect(await intervalOf(h, 'blog')).toBeCloseTo(targetIntervalMs('blog') ?? 0, -2);
    expect(await intervalOf(h, 'incentives')).toBeCloseTo(targetIntervalMs('incentives') ?? 0, -2);
    // Pro (10,000 a day, 15% reserve) over the 14 hours to the reset: the rest makes fundings fast.
    expect(fundings).toBeLessThan(10_000);
    const from = h.sim.requests.length;
    const wall = (await intervalOf(h, 'wall')) ?? 0;
    await runFor(h, 30 * 60_000);
    // About one wall read per planned interval (±5% jitter).
    expect(requestsTo(h.sim, '/wall', from)).toBeGreaterThanOrEqual(Math.floor((30 * 60_000) / wall / 1.1));
    // Two quiet hours later the wall still meets its target: the next post is as urgent as the last.
    await runFor(h, 2 * 60 * 60_000);
    expect(await intervalOf(h, 'wall')).toBeCloseTo(targetIntervalMs('wall') ?? 0, -2);
  });
});
