import { describe, expect, it } from 'vitest';
import { lc, requestsTo, runFor, step, useEngineHarness, wallStatus } from '../harness.js';

const startHarness = useEngineHarness();

describe('a feed switched off for a missing scope', () => {
  it('is re-checked backing off to every 10 minutes and comes back on its own when the scope is added', async () => {
    const h = await startHarness();
    // The platform answers the wall with 403 insufficient_scope until the admin adds wall:read.
    h.sim.faults.unknownError({
      path: '/wall',
      status: 403,
      code: 'insufficient_scope',
      description: 'The key lacks wall:read.',
      n: 1_000,
    });
    await step(h);
    expect((await wallStatus(h))?.disabledReason).toEqual({
      code: 'scope-missing',
      params: { feed: 'wall', scope: 'wall:read' },
    });
    const offWarnings = h.logger.warnings.filter((w) => w.includes('lacks wall:read')).length;
    expect(offWarnings).toBe(1);
    const wallBefore = requestsTo(h.sim, '/wall');
    await runFor(h, 35 * 60_000);
    // 35 minutes off: re-checks after about 5, 15, 35, 75, 155, 315, 635, 1235, 1835 s, and no second warning.
    const rechecks = requestsTo(h.sim, '/wall') - wallBefore;
    expect(rechecks).toBeGreaterThanOrEqual(7);
    expect(rechecks).toBeLessThanOrEqual(10);
    expect(h.logger.warnings.filter((w) => w.includes('lacks wall:read')).length).toBe(1);
    expect((await wallStatus(h))?.disabledReason).toBeDefined();

    h.sim.faults.clear(); // the admin added wall:read to the key
    await runFor(h, 10 * 60_000);
    expect((await wallStatus(h))?.disabledReason).toBeUndefined();
    const backOn = h.logger.records.filter((r) => r.msg?.includes('wall feed is back on'));
    expect(backOn).toHaveLength(1);
    expect(backOn[0]?.level).toBe('info');
    const status = await h.engine.readModel.status(lc);
    expect(status.recentErrors.at(-1)?.note).toEqual({
      code: 'scope-restored',
      params: { feed: 'wall', scope: 'wall:read' },
    });

    // Wall notices work again, at the wall's ordinary pace.
    h.project.addWallPost({ message: 'heard again' });
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('wall-post').map((w) => w.message)).toEqual(['heard again']);
  });
});
