import { describe, expect, it } from 'vitest';
import {
  CPU_BOUND_PER_SECOND,
  type EngineOptions,
  sizedCeilingPerSecond,
} from '../../../src/engine/index.js';
import { seededRandom } from '../../../src/lib/random.js';
import { ManualClock } from '../../support/manual-clock.js';
import { seed, startProjectsEngine } from '../harness.js';

/** An hour before the UTC reset: each key may spend the rest of its day in one hour, up to its minute limit. */
const lateInTheDay = Date.UTC(2026, 2, 2, 23, 0, 0);
const projects = 8;
const windowMs = 2 * 60_000;
/**
 * An uncapped run sends about 1,600 requests through the real simulator: 2 s alone, 20 s on the 2-core CI
 * machine with the suite beside it. A limit that finds a hang, not a speed target.
 */
const runsMs = 60_000;

/**
 * `projects` projects, each with its own fresh Pro key, started late in the UTC day: the
 * polling requests the engine sends in `windowMs` after its first round, and the engine.
 */
async function pollingRequestsLateInTheDay(maxRequestsPerSecond: number | undefined) {
  const clock = new ManualClock(lateInTheDay);
  const { sim, api, engine } = await startProjectsEngine({
    clock,
    projects: Array.from({ length: projects }, (_, i) => seed({ linkCaption: `project-${i}` })),
    api: { random: seededRandom(3), maxRetries: 0 },
    engine: {
      options: {
        publicReads: false,
        ...(maxRequestsPerSecond === undefined ? {} : { maxRequestsPerSecond }),
      } satisfies EngineOptions,
    },
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
  return { sent, engine };
}

describe('the process-wide polling ceiling (maxRequestsPerSecond)', { timeout: runsMs }, () => {
  it('holds a late-day fresh start of many keys to the ceiling, shared by the projects', async () => {
    // 1 request a second for the whole process: at most ~120 in two minutes (a poll planned
    // before the first round's leases were all counted may run a little over).
    const { sent: capped } = await pollingRequestsLateInTheDay(1);
    expect(capped).toBeLessThanOrEqual(Math.ceil((windowMs / 1000) * 1.15));
    expect(capped).toBeGreaterThan((windowMs / 1000) * 0.5);
  });

  it('without a binding ceiling each key spends up to its own minute limit: the case the ceiling exists for', async () => {
    const { sent: uncapped } = await pollingRequestsLateInTheDay(10_000);
    // 8 keys at up to 102 a minute (the Pro minute limit less the 15 % reserve).
    expect(uncapped).toBeGreaterThan(projects * 60);
    expect(uncapped).toBeLessThanOrEqual(projects * 102 * (windowMs / 60_000) + projects * 5);
  });
});

describe('the ceiling sized from the keys and the CPU, and whether it sets the pace', {
  timeout: runsMs,
}, () => {
  const pro = 10_000;
  it('is the old default for a normal fleet, the plans with headroom above it, and never more than the CPU allows', () => {
    expect(sizedCeilingPerSecond([])).toBe(200);
    expect(sizedCeilingPerSecond(Array(1_000).fill(pro))).toBe(200); // 116 a second planned
    expect(sizedCeilingPerSecond(Array(1_600).fill(pro))).toBe(231); // 185 planned, 1.25x
    // 3,000 Pro keys plan 347 a second: half a core at 1.65 ms a request holds them to 303.
    expect(CPU_BOUND_PER_SECOND).toBe(303);
    expect(sizedCeilingPerSecond(Array(3_000).fill(pro))).toBe(CPU_BOUND_PER_SECOND);
  });

  it('tells when the ceiling, not the keys, sets the pace: a late-day fresh start of 8 keys under 1 a second', async () => {
    const { engine } = await pollingRequestsLateInTheDay(1);
    const ceiling = engine.ceiling();
    expect(ceiling).toMatchObject({ perSecond: 1, source: 'configured', keys: projects, binds: true });
    // Each Pro key may spend the rest of its day in the hour left, up to 102 a minute: 1.7 a second each.
    expect(ceiling?.keysPerSecond).toBeGreaterThan(projects * 1.5);
  });

  it('says the keys set the pace when the sized ceiling holds their plans', async () => {
    const { engine } = await pollingRequestsLateInTheDay(undefined);
    expect(engine.ceiling()).toMatchObject({
      perSecond: 200,
      source: 'sized',
      keys: projects,
      binds: false,
    });
  });
});
