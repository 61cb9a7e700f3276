import { describe, expect, it } from 'vitest';
import { type EngineHarness, lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const projectReads = (harness: EngineHarness) =>
  harness.sim.requests.filter((r) => r.path.endsWith(`/project/${lc}`));

describe('the public project view spends the per-IP budget first', () => {
  it('is read without any credential, never past the public budget, and the key keeps the rest', {
    timeout: 60_000,
  }, async () => {
    const h = await startHarness({
      project: { status: 'active' },
      publicLimits: { perMinute: 30, perDay: 20 },
    });
    await step(h);
    await runFor(h, 90 * 60_000);
    const reads = projectReads(h);
    const anonymous = reads.filter((r) => r.credential === 'none');
    // The request carries no Authorization header at all (the simulator logs 'none', not 'invalid').
    expect(anonymous.length).toBeGreaterThan(5);
    expect(h.engine.metrics().publicReads).toBe(anonymous.length);
    // Never exceeded: no 429 and the public reserve (15% of 20) kept.
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(anonymous.length).toBeLessThanOrEqual(20 - Math.ceil(0.15 * 20));
    // Past the public budget the key reads the project again.
    const lastAnonymous = anonymous.at(-1)?.at ?? 0;
    expect(reads.some((r) => r.credential === 'project' && r.at > lastAnonymous)).toBe(true);
  });

  it('is not used for a draft, nor when switched off', async () => {
    const h = await startHarness({ project: { status: 'new' } });
    await step(h);
    await runFor(h, 30 * 60_000);
    expect(projectReads(h).filter((r) => r.credential === 'none')).toEqual([]);
    await h.close();
    const switchedOff = await startHarness({ project: { status: 'active' }, engine: { publicReads: false } });
    await step(switchedOff);
    await runFor(switchedOff, 30 * 60_000);
    expect(projectReads(switchedOff).length).toBeGreaterThan(5);
    expect(projectReads(switchedOff).filter((r) => r.credential === 'none')).toEqual([]);
  });
});
