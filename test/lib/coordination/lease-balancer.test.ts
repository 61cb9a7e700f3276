import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Clock, systemClock } from '../../../src/lib/clock.js';
import { type Lease, memoryLease } from '../../../src/lib/coordination/lease.js';
import { LeaseBalancer } from '../../../src/lib/coordination/lease-balancer.js';
import { connectRedis, type RedisClient } from '../../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../../src/lib/coordination/redis-lease.js';
import { redisReplicaRegistry } from '../../../src/lib/coordination/redis-replica-registry.js';
import {
  memoryReplicaRegistry,
  type ReplicaRegistry,
} from '../../../src/lib/coordination/replica-registry.js';
import { ManualClock } from '../../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../../support/redis-server.js';
import { waitUntil } from '../../support/wait-until.js';

const projects = Array.from({ length: 30 }, (_, i) => `project-${i}`);

interface Fleet {
  readonly balancers: Map<string, LeaseBalancer>;
  start(id: string): LeaseBalancer;
  /** One tick of every running balancer, all at once as separate replicas would. */
  tickAll(): Promise<void>;
  /** Who holds each project, per the lease store (the truth, not the balancers' view). */
  holders(): Promise<Map<string, string>>;
  counts(): Promise<number[]>;
}

function fleet(lease: Lease, registry: ReplicaRegistry, clock: Clock, ttlMs: number): Fleet {
  const balancers = new Map<string, LeaseBalancer>();
  const self: Fleet = {
    balancers,
    start(id) {
      const balancer = new LeaseBalancer({
        self: id,
        lease,
        registry,
        clock,
        projects: () => projects,
        ttlMs,
        // These tests tick by hand every TTL/3: beats live 2/3 of the TTL, so a tick's gap never kills anyone.
        beatTtlMs: (ttlMs * 2) / 3,
      });
      balancers.set(id, balancer);
      return balancer;
    },
    async tickAll() {
      await Promise.all([...balancers.values()].map((balancer) => balancer.tick()));
    },
    async holders() {
      const found = await lease.holders(projects);
      return new Map([...found].map(([project, holder]) => [project, holder.holder]));
    },
    async counts() {
      const holders = await self.holders();
      return [...balancers.keys()].map(
        (id) => [...holders.values()].filter((holder) => holder === id).length,
      );
    },
  };
  return self;
}

const fairSharePlusOne = (replicas: number) => projects.length / replicas + 1;

describe('LeaseBalancer on memory leases and a manual clock', () => {
  const ttlMs = 30_000;
  let clock: ManualClock;
  let replicas: Fleet;
  beforeEach(() => {
    clock = new ManualClock();
    replicas = fleet(memoryLease(clock), memoryReplicaRegistry(clock), clock, ttlMs);
  });

  const tickFor = async (ms: number) => {
    const interval = ttlMs / 3;
    for (let elapsed = 0; elapsed < ms; elapsed += interval) {
      await replicas.tickAll();
      clock.advance(interval);
    }
  };

  it('spreads, takes over a dead replica within the TTL, and gives a newcomer its share', async () => {
    for (const id of ['a', 'b', 'c']) replicas.start(id);
    await tickFor(3 * ttlMs);
    expect((await replicas.holders()).size).toBe(30);
    expect(Math.max(...(await replicas.counts()))).toBeLessThanOrEqual(fairSharePlusOne(3));

    // c is killed: it simply stops ticking. Its leases run out within one TTL; a tick later they are taken.
    const cProjects = [...(await replicas.holders())].filter(([, h]) => h === 'c').map(([p]) => p);
    replicas.balancers.delete('c');
    await tickFor(ttlMs + ttlMs / 3);
    const after = await replicas.holders();
    for (const project of cProjects) expect(['a', 'b']).toContain(after.get(project));
    expect(await replicas.counts()).toEqual([15, 15]);

    // d starts: a and b give up their excess after the grace period and d takes it.
    replicas.start('d');
    await tickFor(3 * ttlMs);
    expect((await replicas.holders()).size).toBe(30);
    expect(Math.max(...(await replicas.counts()))).toBeLessThanOrEqual(fairSharePlusOne(3));
    expect(Math.min(...(await replicas.counts()))).toBeGreaterThanOrEqual(9);
  });

  it('reports the tokens the engine must commit with, and drops leases it could not renew within the TTL', async () => {
    const a = replicas.start('a');
    const report = await a.tick();
    expect(report.held.size).toBe(30);
    const [first] = projects;
    expect(report.held.get(first!)).toBeGreaterThan(0);
    // No tick for a whole TTL (Redis unreachable, or the process paused): a must not believe it still holds them.
    clock.advance(ttlMs);
    expect(a.held().size).toBe(0);
  });

  it('runs a tick every TTL/3 until aborted, then gives its leases back', async () => {
    const a = replicas.start('a');
    const stop = new AbortController();
    const ticks: number[] = [];
    const running = a.run(stop.signal, (report) => ticks.push(report.held.size));
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    clock.advance(ttlMs / 3);
    await vi.waitFor(() => expect(ticks).toEqual([30, 30]));
    stop.abort();
    await running;
    expect((await replicas.holders()).size).toBe(0);
  });

  it('joins before its first claim: replicas starting together each claim their share, none all of them', async () => {
    const a = replicas.start('a');
    const b = replicas.start('b');
    const aJoined = a.join();
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    // b comes up within a's join step: a sees the fleet change and waits a step more; b sees it whole at once.
    const bJoined = b.join();
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(2));
    clock.advance(1_000);
    await bJoined;
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    clock.advance(1_000);
    await aJoined;
    // Claims in the same moment: each reaches first for the projects it scores highest among the live replicas.
    await replicas.tickAll();
    await replicas.tickAll();
    expect(await replicas.counts()).toEqual([15, 15]);
  });

  it('stops waiting when a fleet-mate claimed its share meanwhile, though the fleet changed', async () => {
    const a = replicas.start('a');
    let joined = false;
    const aJoined = a.join().then(() => {
      joined = true;
    });
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    // b arrives within a's join step and claims (it saw a in the fleet): a's fleet changed, but b's claim says
    // the fleet has settled with a in it, so a claims now instead of a step later.
    await replicas.start('b').tick();
    clock.advance(1_000);
    await vi.waitFor(() => expect(joined).toBe(true));
    await aJoined;
    await a.tick();
    expect(await replicas.counts()).toEqual([15, 15]);
  });

  it('claims at once when projects are held already: a fleet running has no first claim to wait for', async () => {
    await replicas.start('a').tick();
    await replicas.start('b').join();
    expect(clock.pendingSleepers).toBe(0);
  });

  it('ticks again after a join step, not a third of the TTL, when another replica took a project it reached for', async () => {
    const lease = memoryLease(clock);
    let refusals = 3; // another replica's claim, in the same moment, won these
    const contested: Lease = {
      ...lease,
      acquire: async (resource, holder, ttl) => {
        if (refusals === 0) return lease.acquire(resource, holder, ttl);
        refusals -= 1;
        return null;
      },
    };
    const a = fleet(contested, memoryReplicaRegistry(clock), clock, ttlMs).start('a');
    const stop = new AbortController();
    const reports: { held: number; contended: boolean }[] = [];
    const running = a.run(stop.signal, (r) => reports.push({ held: r.held.size, contended: r.contended }));
    await vi.waitFor(() => expect(clock.pendingSleepers).toBe(1));
    expect(reports).toEqual([{ held: 27, contended: true }]);
    clock.advance(1_000);
    await vi.waitFor(() => expect(reports).toHaveLength(2));
    expect(reports[1]).toEqual({ held: 30, contended: false });
    stop.abort();
    await running;
  });

  it('gives everything back on stop so the others need not wait for the TTL', async () => {
    const a = replicas.start('a');
    await a.tick();
    await a.stop();
    replicas.balancers.delete('a');
    replicas.start('b');
    await replicas.tickAll();
    expect(await replicas.counts()).toEqual([30]);
  });
});

describe.skipIf(skipRedisTests())('three LeaseBalancers on one real redis-server', () => {
  // Redis expires leases on its real clock: a short TTL keeps the test short; the waits are for conditions.
  const ttlMs = 900;
  const interval = ttlMs / 3;
  let server: RedisServer;
  const clients: RedisClient[] = [];
  let replicas: Fleet;

  beforeAll(async () => {
    server = await startRedisServer();
    const client = await connectRedis(server.url, () => {});
    clients.push(client);
    replicas = fleet(redisLease(client), redisReplicaRegistry(client), systemClock, ttlMs);
  });
  afterAll(async () => {
    for (const client of clients) client.destroy();
    await server?.stop();
  });

  /** When each tick of the fleet began and ended (Date.now()), in order. */
  const ticks: { began: number; ended: number }[] = [];
  /** Ticks every running balancer each interval until `check` passes. */
  const tickUntil = (check: () => Promise<void>, timeoutMs = 15_000) =>
    waitUntil(
      'the fleet to hold the expected shares',
      async () => {
        const began = Date.now();
        await replicas.tickAll();
        ticks.push({ began, ended: Date.now() });
        await check();
        return true;
      },
      { timeoutMs, everyMs: interval, onProbeError: 'retry' },
    );

  it('spreads within fair share + 1, takes over a killed replica within the TTL, and gives a newcomer its share', async () => {
    for (const id of ['a', 'b', 'c']) replicas.start(id);
    await tickUntil(async () => {
      expect((await replicas.holders()).size).toBe(30);
      expect(Math.max(...(await replicas.counts()))).toBeLessThanOrEqual(fairSharePlusOne(3));
    });

    const cProjects = [...(await replicas.holders())].filter(([, h]) => h === 'c').map(([p]) => p);
    expect(cProjects.length).toBeGreaterThan(0);
    replicas.balancers.delete('c'); // killed: no release, no goodbye
    // c renewed at the latest in the fleet's last tick: its leases expire in Redis by that tick's end + the TTL.
    const expiredBy = (ticks.at(-1)?.ended ?? 0) + ttlMs;
    await tickUntil(async () => {
      const holders = await replicas.holders();
      for (const project of cProjects) expect(['a', 'b']).toContain(holders.get(project));
    });
    // Taken over by the first or second tick that began after the expiry. Counted in ticks, not ms (it was
    // TTL + 2 intervals + 300 ms after the kill): on a loaded machine the ticks themselves come later.
    expect(ticks.filter((t) => t.began > expiredBy).length).toBeLessThanOrEqual(2);

    replicas.start('d');
    await tickUntil(async () => {
      const counts = await replicas.counts();
      expect(counts).toHaveLength(3);
      expect(Math.min(...counts)).toBeGreaterThanOrEqual(9);
      expect(Math.max(...counts)).toBeLessThanOrEqual(fairSharePlusOne(3));
    });
  });
});
