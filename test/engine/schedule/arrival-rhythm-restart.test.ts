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

it('a restart goes on from the arrival rhythm kept in the project state: a lull stays a lull', async () => {
  const h = await startHarness({ project: { supporters: initialSupporters(140) } });
  const start = h.clock.now();
  // An hour without a single new supporter: a cold start reads at the planned pace until it has
  // watched the rate long enough to call it a lull, then thins the reads out.
  await runFor(h, 60 * minute);
  const coldStart = fundingsReads(h, start + 2 * minute, start + 9 * minute);
  const inTheLull = fundingsReads(h, start + 50 * minute, start + 57 * minute);
  expect(inTheLull).toBeLessThan(coldStart * 0.5);

  await h.engine.stop();
  h.clock.advance(minute);
  const restartedAt = h.clock.now();
  h.engine = h.newEngine();
  await runFor(h, 10 * minute);
  // Without the stored rhythm the restarted engine would read as often as the cold start did.
  const afterRestart = fundingsReads(h, restartedAt + 2 * minute, restartedAt + 9 * minute);
  expect(afterRestart).toBeLessThan(coldStart * 0.5);
});

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
