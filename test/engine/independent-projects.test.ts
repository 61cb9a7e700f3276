import { describe, expect, it } from 'vitest';
import { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';
import { seed, startProjectsEngine, t0 } from './harness.js';

describe('each project polls on its own schedule', () => {
  it('a project whose request hangs does not stall the others', async () => {
    const clock = new ManualClock(t0);
    const { sim, engine } = await startProjectsEngine({
      clock,
      projects: [seed({ linkCaption: 'slow-one' }), seed({ linkCaption: 'fast-one' })],
    });
    // slow-one's first request takes 8 s of real time, under the client's 10 s timeout (the simulator
    // logs it when answered), and longer than both waits below together.
    sim.faults.slow({ path: '/slow-one', delayMs: 8_000 });
    await engine.start();
    const fastReads = () => sim.requests.filter((r) => r.path.includes('/fast-one')).length;
    await waitUntil('five reads of fast-one', () => fastReads() >= 5, { timeoutMs: 3_000, everyMs: 5 });
    const firstRound = fastReads();
    expect(firstRound).toBeGreaterThanOrEqual(5);
    // Time passes while slow-one is still stuck: fast-one is polled again, slow-one is not started twice.
    // fast-one's run may still be finishing its first round (its next poll is then planned from the
    // moment it finishes), so time keeps moving in small steps until fast-one reads again.
    clock.advance(5 * 60_000);
    await waitUntil(
      'another read of fast-one',
      () => {
        clock.advance(1_000);
        return fastReads() > firstRound;
      },
      { timeoutMs: 3_000, everyMs: 5 },
    );
    expect(fastReads()).toBeGreaterThan(firstRound);
    // ...while slow-one's first request is still unanswered.
    expect(sim.requests.filter((r) => r.path.includes('/slow-one')).length).toBe(0);
  });
});
