import { expect, it } from 'vitest';
import {
  announcedSupporterKeys,
  describeEachListOrder,
  fundingKeyOf,
  initialSupporters,
  runFor,
  step,
} from './harness.js';

describeEachListOrder('a support that turns successful late', (startInOrder) => {
  it('is announced once at any depth behind the new end, even thousands below the window', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(50) } });
    await step(h);
    // Launch: 5,200 supporters in 52 minutes, polled as the engine plans.
    for (let minute = 0; minute < 52; minute++) {
      const start = h.clock.now();
      for (let i = 0; i < 100; i++) h.project.addSupporter({ amount: 1, at: start + i * 600 });
      await runFor(h, 60_000);
    }
    h.recorder.clear();
    // Pending supports from before collected now: listed at their own support_timestamp, deep below the end.
    const late = [30, 200, 700, 5000].map((depth) => {
      const fundings = h?.project.snapshot().fundings ?? [];
      const at = (fundings[fundings.length - 1 - depth]?.support_timestamp ?? 0) * 1000;
      return h?.project.addSupporter({ amount: 3, at }) ?? { supportTimestamp: 0, userId: 0 };
    });
    await runFor(h, 10 * 60_000);
    const announced = announcedSupporterKeys(h.recorder.events);
    expect(announced.sort()).toEqual(late.map(fundingKeyOf).sort());
    expect(h.logger.warnings.filter((w) => w.includes('late search'))).toEqual([]);
  }, 90_000);
});
