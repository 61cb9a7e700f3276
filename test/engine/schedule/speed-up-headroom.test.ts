import { describe, expect, it } from 'vitest';
import { fastestSpedUpIntervalMs } from '../../../src/engine/schedule/process-ceiling.js';
import { type EngineHarness, runFor, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const minute = 60_000;

/** The first-page fundings reads of the key between `from` and `to` (virtual ms): their gaps, sorted. */
function fundingsGaps(h: EngineHarness, from: number, to: number): number[] {
  const at = h.sim.requests
    .filter(
      (r) => r.at >= from && r.at < to && r.path.endsWith('/fundings') && r.query['cursor'] === undefined,
    )
    .map((r) => r.at);
  return at
    .slice(1)
    .map((t, i) => t - (at[i] ?? t))
    .sort((a, b) => a - b);
}

const median = (xs: readonly number[]) => xs[Math.floor(xs.length / 2)] ?? Number.NaN;

/**
 * Ten quiet minutes at the plan's pace, then 40 supporters at once (a post shared widely: a burst the pace
 * reads up to four times faster): the median gap between fundings reads before and in the two minutes after.
 */
async function burstGaps(maxRequestsPerSecond: number | undefined) {
  const h = await startHarness({
    engine: { publicReads: false, ...(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond }) },
  });
  await runFor(h, 10 * minute);
  const burstAt = h.clock.now();
  for (let i = 0; i < 40; i++) h.project.addSupporter({ amount: 1 });
  await runFor(h, 2 * minute);
  const keyed = h.sim.requests.filter((r) => r.at >= burstAt && r.credential === 'project').length;
  return {
    before: median(fundingsGaps(h, burstAt - 5 * minute, burstAt)),
    after: median(fundingsGaps(h, burstAt, h.clock.now())),
    keyedPerSecond: keyed / 120,
  };
}

describe('a fundings speed-up spends only the process ceiling’s headroom', () => {
  it('is the plan’s rate plus the headroom, and the plan’s own interval without any', () => {
    expect(fastestSpedUpIntervalMs(15_000, 1, 0)).toBe(15_000);
    expect(fastestSpedUpIntervalMs(15_000, 1, -1)).toBe(15_000);
    // One more read every 15 s on top of one every 15 s: twice the pace.
    expect(fastestSpedUpIntervalMs(15_000, 1, 1 / 15_000)).toBeCloseTo(7_500, 6);
    // A busy page of two requests a poll: the headroom buys half as many polls.
    expect(fastestSpedUpIntervalMs(15_000, 2, 1 / 15_000)).toBeCloseTo(10_000, 6);
  });

  it('reads a burst faster where the ceiling has room, and at the plan’s pace where the key’s plan fills its slice', async () => {
    // One key at 10:00 UTC: its plan spends 8,500 requests over the 14 h left, about 0.17 a second.
    const roomy = await burstGaps(undefined);
    expect(roomy.after).toBeLessThan(0.7 * roomy.before);
    // A ceiling of 0.17 a second: the plan fills it, nothing is left for the burst's faster reads.
    const full = await burstGaps(0.17);
    expect(full.after).toBeGreaterThan(0.9 * full.before);
    expect(full.keyedPerSecond).toBeLessThanOrEqual(0.17 * 1.03);
  });
});
