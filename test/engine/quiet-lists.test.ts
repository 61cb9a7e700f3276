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
  it('come from the plan (the documented interval), and halve only after two quiet hours', async () => {
    h = await startEngineHarness({
      project: {
        wallPosts: [{ message: 'hello', at: t0 - 60_000 }],
        blogPosts: [{ title: 'Hi', text: 'x', type: 'text', supporterOnly: false, at: t0 - 60_000 }],
      },
    });
    await step(h);
    expect(await intervalOf(h, 'wall')).toBe(60_000);
    expect(await intervalOf(h, 'blog')).toBe(5 * 60_000);
    const from = h.sim.requests.length;
    await runFor(h, 30 * 60_000);
    // About one wall read a minute (±5% jitter), not one every two minutes.
    expect(requestsTo(h.sim, '/wall', from)).toBeGreaterThanOrEqual(28);
    // Two quiet hours after the baseline the quiet rule applies.
    await runFor(h, 2 * 60 * 60_000);
    expect(await intervalOf(h, 'wall')).toBe(120_000);
  });
});
