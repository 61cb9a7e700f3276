import { describe, expect, it } from 'vitest';
import { lc, runFor, step, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const serverText = 'replica db-7 at 10.0.0.5:5432 is down, see https://internal.example/runbook';

describe('what the engine says about failures where channels can see it', () => {
  it('a stale value and /status name a category, never the platform error text, host or path', async () => {
    const h = await startHarness();
    await step(h);
    h.clock.advance(10 * 60_000);
    h.sim.faults.unknownError({ code: 'quantum_flux', status: 503, description: serverText, n: 50 });

    const project = await h.engine.readModel.project(lc, 30_000);
    expect(project.staleBecause).toEqual({
      code: 'read-failed',
      params: { failure: 'http-error', status: 503 },
    });

    await runFor(h, 5 * 60_000);
    const status = await h.engine.readModel.status(lc);
    expect(status.recentErrors.length).toBeGreaterThan(0);
    const shown = JSON.stringify([project.staleBecause, status.recentErrors]);
    for (const leak of ['10.0.0.5', 'db-7', 'internal.example', '/project/', '127.0.0.1', 'quantum_flux']) {
      expect(shown).not.toContain(leak);
    }
    // The operator still gets the details in the log.
    expect(h.logger.warnings.join('\n')).toContain('poll failed');
  });
});

describe('personal data in the stored state', () => {
  it("keeps wall authors' display names only, not their real first and last names", async () => {
    const h = await startHarness();
    await step(h);
    h.project.addWallPost({ authorName: 'Public Nick', message: 'hello' });
    await runFor(h, 5 * 60_000);
    const posts = await h.engine.readModel.recentWallPosts(lc, 10);
    const stored = JSON.stringify(posts.value);
    const real = h.project.snapshot().wall.flatMap((w) => [w.user.first_name, w.user.last_name]);
    expect(posts.value.some((p) => p.user.display_name === 'Public Nick')).toBe(true);
    for (const name of real.filter((n) => n.length > 0)) expect(stored).not.toContain(`"${name}"`);
  });
});
