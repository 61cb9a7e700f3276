/**
 * How the balancer tells a dead replica within seconds while the leases live 30 s (issue 29, item 4): a killed
 * one by its closed connection, a frozen one by its beat; and that a replica thought dead while it lived cannot
 * write a project's state after it was taken. Memory leases on a manual clock; each test's replicas look (beat,
 * bury, balance) once a second, as `run` does.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryConnections, RECONNECT_GRACE_MS } from '../../../src/lib/coordination/connection-watch.js';
import { type Lease, memoryLease } from '../../../src/lib/coordination/lease.js';
import {
  type BalanceReport,
  DEFAULT_BEAT_TTL_MS,
  DEFAULT_LOOK_MS,
  LeaseBalancer,
} from '../../../src/lib/coordination/lease-balancer.js';
import {
  memoryReplicaRegistry,
  type ReplicaRegistry,
} from '../../../src/lib/coordination/replica-registry.js';
import { ManualClock } from '../../support/manual-clock.js';

const projects = Array.from({ length: 30 }, (_, i) => `project-${i}`);

describe('a dead replica, found within seconds at the default 30 s lease TTL', () => {
  let clock: ManualClock;
  let lease: Lease;
  let registry: ReplicaRegistry;
  let connections: MemoryConnections;
  /** The replicas that look; a killed or frozen one is taken out (it runs no more code). */
  let looking: Map<string, LeaseBalancer>;
  let reports: Map<string, BalanceReport[]>;

  beforeEach(() => {
    clock = new ManualClock();
    lease = memoryLease(clock);
    registry = memoryReplicaRegistry(clock);
    connections = new MemoryConnections();
    looking = new Map();
    reports = new Map();
  });

  const start = (id: string, options: { watched?: boolean } = {}) => {
    if (options.watched !== false) connections.open(id);
    const balancer = new LeaseBalancer({
      self: id,
      lease,
      registry,
      clock,
      projects: () => projects,
      ...(options.watched !== false ? { connections: connections.watch(id, clock) } : {}),
    });
    looking.set(id, balancer);
    reports.set(id, []);
    return balancer;
  };
  /** Every looking replica looks and balances, then a look's time passes. */
  const lookAll = async () => {
    for (const [id, balancer] of looking) reports.get(id)?.push(await balancer.tick());
    clock.advance(DEFAULT_LOOK_MS);
  };
  const holdersOf = async (of: readonly string[]) =>
    new Set([...(await lease.holders(of)).values()].map((h) => h.holder));
  /** Looks until every one of `of` is held by a replica in `by`; the time it took. */
  const lookUntilHeld = async (of: readonly string[], by: readonly string[]) => {
    const from = clock.now();
    for (let look = 0; look < 60; look++) {
      const holders = await lease.holders(of);
      if (of.every((p) => by.includes(holders.get(p)?.holder ?? ''))) return clock.now() - from;
      await lookAll();
    }
    throw new Error(`${of.join(', ')} not taken over by ${by.join(', ')} within a minute`);
  };
  /** Starts a fleet together: each beats once before anyone claims (what `join` waits for). */
  const settle = async (ids: readonly string[], options: { watched?: boolean } = {}) => {
    for (const id of ids) start(id, options);
    for (const id of ids) await registry.heartbeat(id, DEFAULT_BEAT_TTL_MS);
    for (let look = 0; look < 5; look++) await lookAll();
    const holders = await lease.holders(projects);
    expect(holders.size).toBe(30);
  };
  const heldBy = async (id: string) =>
    [...(await lease.holders(projects))].filter(([, h]) => h.holder === id).map(([p]) => p);

  it('takes a killed replica’s projects once its connection stayed closed for the reconnect grace', async () => {
    await settle(['a', 'b', 'c']);
    const orphaned = await heldBy('c');
    expect(orphaned.length).toBeGreaterThan(0);
    looking.delete('c');
    connections.close('c'); // kill -9: the kernel closes its socket, nothing reconnects
    const tookMs = await lookUntilHeld(orphaned, ['a', 'b']);
    // Absent at a look, still absent a grace later, buried at that look: its 30 s leases never ran out.
    expect(tookMs).toBeLessThanOrEqual(RECONNECT_GRACE_MS + 2 * DEFAULT_LOOK_MS);
    const deaths = [...reports.values()].flat().flatMap((r) => r.deaths);
    expect(deaths.map((d) => [d.replica, d.cause])).toEqual([['c', 'connection']]);
    expect([...(deaths[0]?.projects ?? [])].sort()).toEqual([...orphaned].sort());
  });

  it('takes a frozen replica’s projects once its beat ran out (its connection stays open)', async () => {
    await settle(['a', 'b', 'c']);
    const orphaned = await heldBy('c');
    looking.delete('c'); // SIGSTOP: no code runs, the socket stays open
    const tookMs = await lookUntilHeld(orphaned, ['a', 'b']);
    expect(tookMs).toBeLessThanOrEqual(DEFAULT_BEAT_TTL_MS + 2 * DEFAULT_LOOK_MS);
    expect([...reports.values()].flat().flatMap((r) => r.deaths.map((d) => d.cause))).toEqual(['beat']);
  });

  it('finds a killed replica by its beat where connections cannot be watched (a proxy, CLIENT disabled)', async () => {
    await settle(['a', 'b', 'c'], { watched: false });
    const orphaned = await heldBy('c');
    looking.delete('c');
    const tookMs = await lookUntilHeld(orphaned, ['a', 'b']);
    expect(tookMs).toBeLessThanOrEqual(DEFAULT_BEAT_TTL_MS + 2 * DEFAULT_LOOK_MS);
  });

  it('a replica found dead while alive (a stall past its beat) drops what it held, and its old tokens write nothing', async () => {
    await settle(['a', 'b', 'c']);
    const c = looking.get('c')!;
    const held = c.held();
    expect(held.size).toBeGreaterThan(0);
    looking.delete('c');
    await lookUntilHeld([...held.keys()], ['a', 'b']);
    // c wakes: before any look it already knows its beat is stale, so the engine polls none of them ...
    expect(c.held().size).toBe(0);
    // ... and a commit it had computed before the stall is refused by the fence.
    for (const [project, token] of held) {
      expect(await lease.fencedSetAll(project, token, [{ key: project, value: 'stale' }])).toBe(false);
    }
    // Its next look tells it it was buried: it lost them all and joins again, as a newcomer.
    looking.set('c', c);
    await lookAll();
    const report = reports.get('c')!.at(-1)!;
    expect(report.lost).toEqual([...held.keys()].sort());
    expect(report.held.size).toBe(0);
    expect(await holdersOf(projects)).toEqual(new Set(['a', 'b']));
  });

  it('does not bury anyone for an outage every replica shared (a Redis restart stops every beat at once)', async () => {
    await settle(['a', 'b', 'c']);
    const before = new Map(await lease.holders(projects));
    // Nobody reaches Redis for 8 s: every beat runs out. Then they come back one after the other.
    clock.advance(8_000);
    for (let look = 0; look < 8; look++) await lookAll();
    const after = await lease.holders(projects);
    expect([...reports.values()].flat().flatMap((r) => r.deaths)).toEqual([]);
    expect([...after].map(([p, h]) => [p, h.holder])).toEqual([...before].map(([p, h]) => [p, h.holder]));
  });
});
