/**
 * Issue 30, "watching from now on": /subscribe confirms only once the supporters' baseline is stored. On the
 * replica that polls the project it is read on demand (a project's first start); any other replica finds it in
 * the store, where the poller committed it.
 */
import { describe, expect, it } from 'vitest';
import { memoryLease } from '../../../src/engine/index.js';
import {
  announcedSupporterKeys,
  fundingKeyOf,
  lc,
  requestsTo,
  runFor,
  useEngineHarness,
} from '../harness.js';

const startHarness = useEngineHarness();

describe('readModel.baseline', () => {
  it('on a first start reads the fundings baseline at once; the supporter right after it is announced', async () => {
    const h = await startHarness({ project: { supporters: [] } });
    for (let i = 0; i < 5; i += 1) h.project.addSupporter({ displayName: `Earlier ${i}` });
    expect(requestsTo(h.sim, '/fundings')).toBe(0);
    expect(await h.engine.readModel.baseline(lc, 5_000)).toBe(true);
    expect(requestsTo(h.sim, '/fundings')).toBe(1);
    // Known now: asked again, no request.
    expect(await h.engine.readModel.baseline(lc, 5_000)).toBe(true);
    expect(requestsTo(h.sim, '/fundings')).toBe(1);
    const next = h.project.addSupporter({ displayName: 'Right After Subscribe' });
    await runFor(h, 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([fundingKeyOf(next)]);
  });

  it('on a replica that does not poll the project: true once the poller stored it, no request of its own', async () => {
    const h = await startHarness({ project: { supporters: [] } });
    const lease = memoryLease(h.clock);
    await h.engine.stop();
    const poller = h.newEngine({ lease, replicaId: 'poller' });
    const other = h.newEngine({ lease, replicaId: 'other' });
    await lease.acquire(lc, 'poller', 30_000);
    // Nothing stored yet, and the other replica may not read it itself.
    expect(await other.readModel.baseline(lc, 0)).toBe(false);
    expect(requestsTo(h.sim, '/fundings')).toBe(0);
    await poller.runDue();
    expect(await other.readModel.baseline(lc, 0)).toBe(true);
    expect(requestsTo(h.sim, '/fundings')).toBe(1);
    await poller.stop();
    await other.stop();
  });

  it('a refused key: false without waiting, so /subscribe says notices start from the first read', async () => {
    const h = await startHarness({ project: { supporters: [] } });
    h.sim.revokeKey(h.rawKey);
    expect(await h.engine.readModel.baseline(lc, 60_000)).toBe(false);
    expect(h.engine.status()[0]?.paused).not.toBeNull();
  });
});
