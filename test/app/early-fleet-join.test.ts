import { afterEach, describe, expect, it } from 'vitest';
import { type EarlyFleetJoin, startFleetJoinEarly } from '../../src/app/early-fleet-join.js';
import type { StartedReplicas } from '../../src/app/start-replicas.js';
import { type FundbotConfig, parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/ops/index.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

const projects = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];

function configOn(storeUrl: string): FundbotConfig {
  const parsed = parseConfig(
    JSON.stringify({
      api: { baseUrl: 'http://127.0.0.1:9' },
      store: { url: storeUrl, leaseTtlMs: 3_000 },
      projects: projects.map((linkCaption, i) => ({ linkCaption, apiKeyEnv: `PROJECT_KEY_${i}` })),
      digest: { enabled: false },
    }),
    {
      env: Object.fromEntries(
        projects.map((_, i) => [`PROJECT_KEY_${i}`, `svc_proj_early_join_test_key_000${i}`]),
      ),
      source: 'test.json',
    },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

describe('the fleet join started before the bot loads (src/main.ts)', () => {
  it('is not started for a store one process owns (SQLite, memory)', () => {
    expect(startFleetJoinEarly(configOn('sqlite://./data/early-join-test.sqlite'), silentLogger)).toBe(
      undefined,
    );
    expect(startFleetJoinEarly(configOn('memory:'), silentLogger)).toBe(undefined);
  });
});

describe.skipIf(skipRedisTests())('the early fleet join on a real redis-server', () => {
  let redis: RedisServer | undefined;
  const started: StartedReplicas[] = [];

  afterEach(async () => {
    for (const replica of started.splice(0)) {
      await replica.stop();
      await replica.close();
    }
    await redis?.stop();
  });

  it('spreads the configured projects over a fleet starting together, then the projects the bot binds', async () => {
    redis = await startRedisServer();
    const config = configOn(redis.url);
    const joins = [0, 1, 2].map(() => startFleetJoinEarly(config, silentLogger));
    const early = joins.filter((j): j is EarlyFleetJoin => j !== undefined);
    expect(early).toHaveLength(3);
    const replicas = await Promise.all(early.map((j) => j.replicas));
    for (const r of replicas) if (r !== undefined) started.push(r);
    expect(started).toHaveLength(3);

    // Before the bot binds anything the join spreads the configured projects: each replica its share, none twice
    // (a short TTL's join may end before the fleet stood still a whole step: the balancer evens it out).
    await waitUntil(
      'a fair split of the configured projects',
      () => started.every((r) => r.held().length === 2),
      {
        timeoutMs: 15_000,
        everyMs: 50,
      },
    );
    expect(started.flatMap((r) => r.held()).sort()).toEqual([...projects].sort());
    // Its metrics are on the registry the bot serves at /metrics.
    const metrics = await early[0]?.registry.metrics();
    expect(metrics).toMatch(/^fundbot_leases_held 2$/m);

    // Bound, the bot's list is what the balancer spreads from the next tick (TTL/3: 1 s here).
    const withHosted = [...projects, 'hosted-golf'];
    for (const join of early) join.bind({ projects: () => withHosted, onStoreOutcome: () => {} });
    await waitUntil('the bound project to be held', () =>
      started.some((r) => r.held().includes('hosted-golf')),
    );
    expect(started.flatMap((r) => r.held()).filter((p) => p === 'hosted-golf')).toHaveLength(1);
  }, 30_000);
});
