import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, parseProjectKey } from '../../src/api/index.js';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { memoryStore } from '../../src/lib/store.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';
import { seed, t0 } from './harness.js';

let sim: Simulator | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.stop();
  await sim?.close();
  engine = sim = undefined;
});

describe('each project polls on its own schedule', () => {
  it('a project whose request hangs does not stall the others', async () => {
    const clock = new ManualClock(t0);
    sim = await startSimulator({
      clock,
      seed: 1,
      projects: [seed({ linkCaption: 'slow-one' }), seed({ linkCaption: 'fast-one' })],
    });
    const api = createApiClient({ baseUrl: sim.url, clock });
    const keyOf = (lc: string) => parseProjectKey(sim?.issueProjectKey(lc, { plan: 'pro' }) ?? '');
    // slow-one's first request takes 8 s of real time, under the client's 10 s timeout (the simulator
    // logs it when answered), and longer than both waits below together.
    sim.faults.slow({ path: '/slow-one', delayMs: 8_000 });
    engine = createEngine({
      api,
      store: memoryStore(),
      clock,
      random: seededRandom(1),
      projects: [
        { linkCaption: 'slow-one', key: keyOf('slow-one') },
        { linkCaption: 'fast-one', key: keyOf('fast-one') },
      ],
      deliver: async () => {},
    });
    await engine.start();
    const fastReads = () => sim?.requests.filter((r) => r.path.includes('/fast-one')).length ?? 0;
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
