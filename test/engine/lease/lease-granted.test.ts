import { describe, expect, it } from 'vitest';
import { memoryLease } from '../../../src/engine/index.js';
import { lc, requestsTo, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const ttlMs = 30_000;

describe('a project whose lease the balancer just granted', () => {
  it('is polled at once, not a third of a TTL later', async () => {
    const h = await startHarness({ engine: { leaseTtlMs: ttlMs } });
    const lease = memoryLease(h.clock);
    // Another replica holds the project: this one's run finds no lease and waits for its next try.
    await lease.acquire(lc, 'replica-dead', ttlMs);
    const engine = h.newEngine({ lease, replicaId: 'replica-1' });
    await engine.runDue();
    expect(requestsTo(h.sim, '/fundings')).toBe(0);
    expect(engine.nextDueAt()).toBe(h.clock.now() + ttlMs / 3);

    // The holder is gone and the balancer gave the lease to this replica: no clock has to move.
    await lease.release(lc, 'replica-dead');
    engine.leaseGranted(lc);
    expect(engine.nextDueAt()).toBe(h.clock.now());
    await engine.runDue();
    expect(requestsTo(h.sim, '/fundings')).toBeGreaterThan(0);
    await engine.stop();
  });
});
