import { expect, it } from 'vitest';
import { type EngineHarness, initialSupporters, runFor, useEngineHarness } from '../harness.js';

const minute = 60_000;

const startHarness = useEngineHarness();

/** First-page fundings reads the simulator answered between `from` and `to` (epoch ms). */
function fundingsReads(harness: EngineHarness, from: number, to: number): number {
  return harness.sim.requests.filter(
    (r) => r.path.endsWith('/fundings') && r.at >= from && r.at < to && Number(r.query['offset'] ?? 0) === 0,
  ).length;
}

it('supports that fail soon after they are found do not keep the fundings reads at a busy pace', async () => {
  const h = await startHarness({ project: { supporters: initialSupporters(140) } });
  const start = h.clock.now();
  // An hour in which a support arrives every two minutes and fails a minute later (a run of declined
  // cards): each is found, announced and withdrawn; none stays. The rate of supporters that stay is nil.
  for (let i = 0; i < 30; i++) {
    const key = h.project.addSupporter({ amount: 5 });
    await runFor(h, minute);
    h.project.failSupport(key);
    await runFor(h, minute);
  }
  const end = h.clock.now();
  // The first minutes, before any lull may be called (RATES_KNOWN_AFTER_MS): the plan's pace.
  const coldStart = fundingsReads(h, start + 2 * minute, start + 9 * minute);
  expect(h.recorder.ofType('supporter').length).toBeGreaterThan(20);
  // Counted as arrivals, thirty an hour kept every read at the plan's pace (about 2 supporters per 15 reads).
  expect(fundingsReads(h, end - 7 * minute, end)).toBeLessThan(coldStart * 0.6);
});
