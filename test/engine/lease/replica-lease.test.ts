import { afterEach, describe, expect, it } from 'vitest';
import {
  connectReplicaCoordination,
  type ReplicaCoordination,
} from '../../../src/app/replica-coordination.js';
import type { FundbotEvent } from '../../../src/domain/events.js';
import { readStoredState } from '../../../src/engine/state/project-state-store.js';
import { systemClock } from '../../../src/lib/clock.js';
import { namespaced } from '../../../src/lib/store.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';
import { waitUntil } from '../../support/wait-until.js';
import { type EngineHarness, lc, startEngineHarness } from '../harness.js';

/** A real-time lease (Redis PX) next to the engine's virtual clock: the engine's view can go stale, as in a pause. */
const TTL_MS = 1_000;

const supporterNames = (events: readonly FundbotEvent[]) =>
  events.flatMap((e) => (e.type === 'supporter' ? [e.displayName] : []));

describe.skipIf(skipRedisTests())('project leases on a real redis-server', () => {
  let server: RedisServer | undefined;
  let h: EngineHarness | undefined;
  const replicas: ReplicaCoordination[] = [];

  afterEach(async () => {
    for (const replica of replicas.splice(0)) await replica.store.close().catch(() => {});
    await h?.close().catch(() => {});
    await server?.stop();
  });

  const replica = async (url: string, id: string) => {
    const r = await connectReplicaCoordination({
      url,
      replicaId: id,
      clock: systemClock,
      projects: () => [lc],
      ttlMs: TTL_MS,
      onError: () => {},
    });
    replicas.push(r);
    return r;
  };

  // The fenced write's refusal of an old token is proved on memory and Redis in test/lib/coordination; since the
  // fleet watch (issue 29) a replica also knows its own lease ran out before it polls, which this test shows.
  it('a paused replica whose lease expired neither polls nor commits, and the successor delivers', async () => {
    server = await startRedisServer();
    const a = await replica(server.url, 'replica-a');
    const b = await replica(server.url, 'replica-b');
    const engineOptions = { leaseTtlMs: 60_000, targetIntervalsMs: { fundings: 10_000 } };
    h = await startEngineHarness({ store: namespaced(a.store, 'engine/'), engine: engineOptions });
    const stored = () => readStoredState(h!.store, lc);

    expect((await a.balancer.tick()).acquired).toEqual([lc]);
    const engineA = h.newEngine({ lease: a.engineLease, replicaId: 'replica-a' });
    await engineA.runDue();
    expect(await stored()).toBeDefined(); // A's fenced commit landed where the keyv store reads

    // A pauses (no balancer tick, no renewal). Its lease runs out in Redis; B takes the project over.
    // As long as the test may take (20 s).
    await waitUntil('B to take the project over', async () => (await b.balancer.tick()).held.has(lc), {
      timeoutMs: 20_000,
      everyMs: 50,
    });
    const engineB = h.newEngine({
      lease: b.engineLease,
      replicaId: 'replica-b',
      store: namespaced(b.store, 'engine/'),
    });
    await engineB.runDue();
    const afterB = JSON.stringify(await stored());

    // A wakes up believing (on its own clock) that it still holds the lease, and finds a new supporter.
    h.project.addSupporter({ displayName: 'Zoe', amount: 5 });
    h.clock.advance(20_000);
    const delivered = h.recorder.events.length;
    const requestsBefore = h.sim.requests.length;
    await engineA.runDue();
    // Its tenure is older than the TTL on its own clock: A knows it lost the project before any request.
    expect(h.sim.requests.length).toBe(requestsBefore);
    expect(h.recorder.events.length).toBe(delivered); // nothing committed, so nothing delivered
    expect(JSON.stringify(await stored())).toBe(afterB); // B's state untouched

    await b.balancer.tick(); // B renews (it runs its balancer every TTL/3)
    await engineB.runDue();
    expect(supporterNames(h.recorder.events.slice(delivered))).toEqual(['Zoe']);
  });
  it("a poll that outlasts the engine's own view of the lease still commits while the balancer renewed it", async () => {
    // Found by bench:replicas on a loaded host: a fundings poll slower than 2/3 of the TTL made the engine give up
    // a project its balancer still held ("lease lost before the state write"), dropping the poll's work.
    server = await startRedisServer();
    const a = await replica(server.url, 'replica-a');
    const engineOptions = { leaseTtlMs: 60_000, targetIntervalsMs: { fundings: 10_000 } };
    h = await startEngineHarness({ store: namespaced(a.store, 'engine/'), engine: engineOptions });
    expect((await a.balancer.tick()).acquired).toEqual([lc]);
    const engine = h.newEngine({ lease: a.engineLease, replicaId: 'replica-a' });
    await engine.runDue();

    h.project.addSupporter({ displayName: 'Slow Sam', amount: 5 });
    h.clock.advance(30_000); // fundings due (its interval follows the budget, at least 10 s)
    h.sim.faults.slow({ path: '/fundings', delayMs: 400, n: 1 });
    const run = engine.runDue();
    // While the request hangs, the engine's clock passes the lease it noted; the balancer renews in Redis.
    await new Promise((resolve) => setTimeout(resolve, 100));
    h.clock.advance(60_000);
    await a.balancer.tick();
    await run;

    expect(h.logger.warnings).not.toContain(
      'lease lost before the state write: another replica polls this project now',
    );
    expect(supporterNames(h.recorder.events)).toContain('Slow Sam');
  });
});
