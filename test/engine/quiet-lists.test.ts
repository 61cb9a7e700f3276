import { afterEach, describe, expect, it } from 'vitest';
import { type EngineHarness, lc, requestsTo, runFor, startEngineHarness, step, t0 } from './harness.js';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const intervalOf = async (harness: EngineHarness, feed: string) =>
  (await harness.engine.readModel.status(lc)).feeds.find((f) => f.feed === feed)?.intervalMs;

describe('wall and blog intervals after a fresh start', () => {
  it('come from the budget by weight (no cap), and the share halves only after two quiet hours', {
    timeout: 60_000,
  }, async () => {
    h = await startEngineHarness({
      project: {
        wallPosts: [{ message: 'hello', at: t0 - 60_000 }],
        blogPosts: [{ title: 'Hi', text: 'x', type: 'text', supporterOnly: false, at: t0 - 60_000 }],
      },
    });
    await step(h);
    const fundings = (await intervalOf(h, 'fundings')) ?? 0;
    const wall = (await intervalOf(h, 'wall')) ?? 0;
    // Weights 8 (fundings) and 2 (wall): the wall gets a quarter of the fundings' rate.
    expect(wall / fundings).toBeCloseTo(4, 1);
    // Pro (10,000 a day, 15% reserve) spread over the 14 hours to the reset: fundings well under 20 s.
    expect(fundings).toBeLessThan(15_000);
    const from = h.sim.requests.length;
    await runFor(h, 30 * 60_000);
    // About one wall read per planned interval (±5% jitter).
    expect(requestsTo(h.sim, '/wall', from)).toBeGreaterThanOrEqual(Math.floor((30 * 60_000) / wall / 1.1));
    // Two quiet hours after the baseline the quiet rule applies: half the share, twice the ratio.
    await runFor(h, 2 * 60 * 60_000);
    const quietRatio = ((await intervalOf(h, 'wall')) ?? 0) / ((await intervalOf(h, 'fundings')) ?? 1);
    expect(quietRatio).toBeCloseTo(8, 1);
  });
});
