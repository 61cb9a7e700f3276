import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReplicaCoordination } from '../../src/app/replica-coordination.js';
import { startReplicas } from '../../src/app/start-replicas.js';
import { systemClock } from '../../src/lib/clock.js';
import { createHealthMonitor } from '../../src/ops/health.js';
import { recordingLogger } from '../support/recording-logger.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

const projects = ['alpha', 'bravo', 'charlie', 'delta'];

describe.skipIf(skipRedisTests())('replicas on one real redis-server', () => {
  let server: RedisServer | undefined;
  const running: ReplicaCoordination[] = [];

  afterEach(async () => {
    for (const replica of running.splice(0)) {
      await replica.stop();
      await replica.close().catch(() => {});
    }
    await server?.stop();
  });

  const start = async (registry: Registry) => {
    const replica = await startReplicas({
      storeUrl: server!.url,
      leaseTtlMs: 3_000,
      clock: systemClock,
      logger: recordingLogger(),
      registry,
      projects: () => projects,
      onStoreOutcome: () => {},
    });
    if (replica === undefined) throw new Error('a redis:// store must start replicas');
    running.push(replica);
    return replica;
  };

  it('share the projects, show them on /healthz and /metrics, and take over a stopped replica’s projects', async () => {
    server = await startRedisServer();
    const registryA = new Registry();
    const a = await start(registryA);
    const b = await start(new Registry());
    await waitUntil('a fair split', () => a.held().length === 2 && b.held().length === 2, {
      timeoutMs: 20_000,
      everyMs: 50,
    });
    expect([...a.held(), ...b.held()].sort()).toEqual(projects);

    const health = createHealthMonitor({
      clock: systemClock,
      projects: () => a.held(),
      replica: () => ({ id: a.replicaId, holds: a.held() }),
    });
    const report = health.report();
    expect(report.checks['replica']?.detail).toBe(
      `replica ${a.replicaId} holds 2 project(s): ${a.held().join(', ')}`,
    );
    expect(Object.keys(report.checks).filter((c) => c.startsWith('poll:'))).toEqual(
      a.held().map((p) => `poll:${p}`),
    );
    expect(await registryA.getSingleMetricAsString('fundbot_leases_held')).toContain('fundbot_leases_held 2');

    // A clean stop gives the leases back: B takes all four at its next ticks, without waiting a TTL.
    const [stopped] = running.splice(0, 1);
    await stopped!.stop();
    await stopped!.close();
    await waitUntil('the takeover', () => b.held().length === 4, { timeoutMs: 10_000, everyMs: 50 });
  });

  it('a SQLite or memory store starts no replica coordination', async () => {
    const none = await startReplicas({
      storeUrl: 'sqlite://./data/x.sqlite',
      leaseTtlMs: 30_000,
      clock: systemClock,
      logger: recordingLogger(),
      registry: new Registry(),
      projects: () => projects,
      onStoreOutcome: () => {},
    });
    expect(none).toBeUndefined();
  });
});
