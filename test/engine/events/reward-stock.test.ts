import { describe, expect, it } from 'vitest';
import { crossesLowStock } from '../../../src/domain/reward-stock.js';
import { lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

/** A limited kit (6 in stock) and an unlimited postcard. */
const rewards = [
  { id: 7, title: 'Kiosk kit', price: 120, quantityTotal: 6 },
  { id: 8, title: 'Postcard', price: 5 },
];

describe('reward watch: back in stock and low stock', () => {
  it('a sold-out reward available again is back in stock once per sell-out; never a reward first seen in stock', async () => {
    const h = await startHarness({ project: { rewards } });
    await step(h);
    h.project.addSupporter({ rewardIds: [8], amount: 5 });
    const buyers = Array.from({ length: 6 }, () => h.project.addSupporter({ rewardIds: [7], amount: 120 }));
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('reward-sold-out').map((e) => e.id)).toEqual([`${lc}:reward-sold-out:7:1`]);
    expect(h.recorder.ofType('reward-restocked')).toEqual([]);
    const [first, second] = buyers;
    if (!first || !second) throw new Error('no buyers');
    h.project.failSupport(first);
    await runFor(h, 5 * 60_000);
    const restocked = h.recorder.ofType('reward-restocked');
    expect(restocked.map((e) => [e.id, e.title, e.remaining])).toEqual([
      [`${lc}:reward-restocked:7:1`, 'Kiosk kit', 1],
    ]);
    // One left again: the second sell-out and its restock are new notices.
    h.project.addSupporter({ rewardIds: [7], amount: 120 });
    await runFor(h, 5 * 60_000);
    h.project.failSupport(second);
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('reward-restocked').map((e) => e.id)).toEqual([
      `${lc}:reward-restocked:7:1`,
      `${lc}:reward-restocked:7:2`,
    ]);
  });

  it('a reward sold out at first sight and available later is back in stock', async () => {
    const h = await startHarness({ project: { rewards } });
    const buyers = Array.from({ length: 6 }, () => h.project.addSupporter({ rewardIds: [7], amount: 120 }));
    await step(h);
    expect(h.recorder.ofType('reward-sold-out')).toEqual([]);
    const [buyer] = buyers;
    if (!buyer) throw new Error('no buyer');
    h.project.failSupport(buyer);
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('reward-restocked').map((e) => e.rewardId)).toEqual([7]);
  });

  it('every drop of a limited count is one low-stock event; each threshold is crossed once per crossing, and a restart repeats none', async () => {
    const h = await startHarness({ project: { rewards } });
    await step(h);
    const sell = (n: number) =>
      Array.from({ length: n }, () => h.project.addSupporter({ rewardIds: [7], amount: 120 }));
    sell(2); // 6 → 4
    await runFor(h, 5 * 60_000);
    const [cancelled] = sell(1); // 4 → 3
    await runFor(h, 5 * 60_000);
    await h.engine.stop();
    // Restarted: the stored counts carry on, nothing is said again.
    h.engine = h.newEngine();
    await runFor(h, 5 * 60_000);
    if (!cancelled) throw new Error('no buyer');
    h.project.failSupport(cancelled); // 3 → 4: back above 3
    await runFor(h, 5 * 60_000);
    sell(1); // 4 → 3 again
    await runFor(h, 5 * 60_000);
    const drops = h.recorder.ofType('reward-low-stock');
    expect(drops.map((e) => [e.id, e.remainingBefore, e.remaining])).toEqual([
      [`${lc}:reward-low-stock:7:1`, 6, 4],
      [`${lc}:reward-low-stock:7:2`, 4, 3],
      [`${lc}:reward-low-stock:7:3`, 4, 3],
    ]);
    // A channel at 3 is told twice (it went back above in between), at 4 once, at 5 once, at 2 never.
    const told = (threshold: number | undefined) => drops.filter((d) => crossesLowStock(d, threshold)).length;
    expect([told(3), told(4), told(5), told(2), told(undefined)]).toEqual([2, 1, 1, 0, 0]);
    // The unlimited postcard never has a count to report.
    expect(drops.every((d) => d.rewardId === 7)).toBe(true);
  });

  it('selling the last ones is the sold-out notice, not "last 0 left"', async () => {
    const h = await startHarness({ project: { rewards } });
    await step(h);
    for (let i = 0; i < 6; i += 1) h.project.addSupporter({ rewardIds: [7], amount: 120 });
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('reward-low-stock')).toEqual([]);
    expect(h.recorder.ofType('reward-sold-out')).toHaveLength(1);
  });
});
