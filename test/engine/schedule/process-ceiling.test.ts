import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, parseProjectKey } from '../../../src/api/index.js';
import { createEngine, type Engine } from '../../../src/engine/index.js';
import { seededRandom } from '../../../src/lib/random.js';
import { memoryStore } from '../../../src/lib/store.js';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { ManualClock } from '../../support/manual-clock.js';
import { seed } from '../harness.js';

let sim: Simulator | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.stop();
  await sim?.close();
  engine = sim = undefined;
});

/** An hour before the UTC reset: each key may spend the rest of its day in one hour, up to its minute limit. */
const lateInTheDay = Date.UTC(2026, 2, 2, 23, 0, 0);
const projects = 8;
const windowMs = 2 * 60_000;

/**
 * `projects` projects, each with its own fresh Pro key, started late in the UTC day: the
 * polling requests the engine sends in `windowMs` after its first round.
 */
async function pollingRequestsLateInTheDay(maxRequestsPerSecond: number): Promise<number> {
  const clock = new ManualClock(lateInTheDay);
  sim = await startSimulator({
    clock,
    seed: 1,
    projects: Array.from({ length: projects }, (_, i) => seed({ linkCaption: `project-${i}` })),
  });
  const api = createApiClient({ baseUrl: sim.url, clock, random: seededRandom(3), maxRetries: 0 });
  engine = createEngine({
    api,
    store: memoryStore(),
    clock,
    random: seededRandom(1),
    projects: Array.from({ length: projects }, (_, i) => ({
      linkCaption: `project-${i}`,
      key: parseProjectKey(sim?.issueProjectKey(`project-${i}`, { plan: 'pro' }) ?? ''),
    })),
    deliver: async () => {},
    options: { maxRequestsPerSecond, publicReads: false },
  });
  await engine.runDue(); // the first round: every feed's baseline
  const from = sim.requests.length;
  const until = clock.now() + windowMs;
  while (engine.nextDueAt() <= until) {
    clock.set(Math.max(clock.now(), engine.nextDueAt()));
    await engine.runDue();
  }
  const sent = sim.requests.length - from;
  await api.close();
  return sent;
}

describe('the process-wide polling ceiling (maxRequestsPerSecond)', () => {
  it('holds a late-day fresh start of many keys to the ceiling, shared by the projects', async () => {
    // 1 request a second for the whole process: at most ~120 in two minutes (a poll planned
    // before the first round's leases were all counted may run a little over).
    const capped = await pollingRequestsLateInTheDay(1);
    expect(capped).toBeLessThanOrEqual(Math.ceil((windowMs / 1000) * 1.15));
    expect(capped).toBeGreaterThan((windowMs / 1000) * 0.5);
  });

  it('without a binding ceiling each key spends up to its own minute limit: the case the ceiling exists for', async () => {
    const uncapped = await pollingRequestsLateInTheDay(10_000);
    // 8 keys at up to 102 a minute (the Pro minute limit less the 15 % reserve).
    expect(uncapped).toBeGreaterThan(projects * 60);
    expect(uncapped).toBeLessThanOrEqual(projects * 102 * (windowMs / 60_000) + projects * 5);
  });
});
