/**
 * One replica of the replicas benchmark, as its own process: a LeaseBalancer on the shared Redis decides which
 * projects it holds; it polls those on the simulator every `pollMs` and commits a stand-in state with the
 * lease's fencing token. It prints one JSON line per poll on stdout for the orchestrator (run.ts).
 *
 * It does not run the engine (the lead wires the balancer into it): what it measures is lease coverage,
 * spread, failover and fencing, not deliveries.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApiClient, parseProjectKey } from '../../src/api/index.js';
import { systemClock } from '../../src/lib/clock.js';
import { LeaseBalancer } from '../../src/lib/coordination/lease-balancer.js';
import { connectRedis } from '../../src/lib/coordination/redis-client.js';
import { redisLease } from '../../src/lib/coordination/redis-lease.js';
import { redisReplicaRegistry } from '../../src/lib/coordination/redis-replica-registry.js';
import { type PollLine, stateKey } from './protocol.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      id: { type: 'string' },
      redis: { type: 'string' },
      sim: { type: 'string' },
      keys: { type: 'string' },
      ttl: { type: 'string', default: '3000' },
      poll: { type: 'string', default: '1000' },
    },
  });
  if (!values.id || !values.redis || !values.sim || !values.keys) {
    throw new Error('usage: replica.ts --id ID --redis URL --sim URL --keys FILE [--ttl MS] [--poll MS]');
  }
  const self = values.id;
  const ttlMs = Number(values.ttl);
  const pollMs = Number(values.poll);
  const keys = new Map(
    Object.entries(JSON.parse(readFileSync(values.keys, 'utf8')) as Record<string, string>).map(
      ([project, key]) => [project, parseProjectKey(key)] as const,
    ),
  );
  const projects = [...keys.keys()];
  const client = await connectRedis(values.redis, () => {}); // reconnects; failed ticks are reported below
  const lease = redisLease(client);
  const balancer = new LeaseBalancer({
    self,
    lease,
    registry: redisReplicaRegistry(client),
    clock: systemClock,
    projects: () => projects,
    ttlMs,
    onError: (error) => process.stderr.write(`${self}: tick failed: ${String(error)}\n`),
  });
  const api = createApiClient({ baseUrl: values.sim, maxRetries: 0 });
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());

  const lastPolled = new Map<string, number>();
  const pollDue = async () => {
    const now = Date.now();
    await Promise.all(
      [...balancer.held()].map(async ([project, token]) => {
        if (now - (lastPolled.get(project) ?? 0) < pollMs) return;
        lastPolled.set(project, now);
        try {
          await api.project(project, keys.get(project)!).get();
        } catch {
          return; // a failed poll is no poll: the orchestrator sees the gap
        }
        const polledAt = Date.now();
        let commit: PollLine['commit'];
        try {
          const value = JSON.stringify({ replica: self, token, at: polledAt });
          commit = (await lease.fencedSet(project, token, stateKey(project), value)) ? 'written' : 'refused';
        } catch {
          commit = 'failed';
        }
        const line: PollLine = { replica: self, project, token, polledAt, committedAt: Date.now(), commit };
        process.stdout.write(`${JSON.stringify(line)}\n`);
      }),
    );
  };

  // Newly acquired projects are polled at once, not at the next poll tick: a takeover should end the gap.
  const balancing = balancer.run(stop.signal, (report) => {
    if (report.acquired.length > 0) void pollDue();
  });
  while (!stop.signal.aborted) {
    await pollDue();
    await systemClock.sleep(100, stop.signal).catch(() => {});
  }
  await balancing;
  await api.close();
  client.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
