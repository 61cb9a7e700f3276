import { describe, expect, it } from 'vitest';
import { redisReplicaRegistry } from '../../../src/lib/coordination/redis-replica-registry.js';
import {
  memoryReplicaRegistry,
  type ReplicaRegistry,
} from '../../../src/lib/coordination/replica-registry.js';
import { ManualClock } from '../../support/manual-clock.js';
import { skipRedisTests } from '../../support/redis-server.js';
import { sharedRedis } from '../../support/shared-redis.js';

/** A registry under test and a way to let `ms` pass on the clock that expires its beats. */
interface RegistrySubject {
  readonly registry: ReplicaRegistry;
  readonly beatMs: number;
  pass(ms: number): Promise<void>;
}

function registryContract(subject: () => RegistrySubject): void {
  it('lists the live replicas, keeps the silent ones as expired until buried, and says who is watched', async () => {
    const { registry, beatMs, pass } = subject();
    const first = await registry.heartbeat('a', beatMs, { watched: true });
    expect(first).toEqual({ live: ['a'], expired: [], watched: ['a'], wasListed: false });
    await registry.heartbeat('b', beatMs);
    expect(await registry.heartbeat('a', beatMs, { watched: true })).toEqual({
      live: ['a', 'b'],
      expired: [],
      watched: ['a'],
      wasListed: true,
    });
    // b stops beating: it stays listed as expired, for the one that buries it to break its leases.
    await pass(beatMs * 2);
    const view = await registry.heartbeat('a', beatMs * 10, { watched: true });
    expect(view).toMatchObject({ live: ['a'], expired: ['b'] });
    expect(await registry.buryExpired(['b'])).toEqual(['b']);
    expect((await registry.heartbeat('a', beatMs * 10)).expired).toEqual([]);
  });

  it('buries only a replica still silent: one that beat again in the meantime stays', async () => {
    const { registry, beatMs, pass } = subject();
    await registry.heartbeat('a', beatMs * 10);
    await registry.heartbeat('b', beatMs);
    await pass(beatMs * 2);
    expect((await registry.heartbeat('a', beatMs * 10)).expired).toEqual(['b']);
    await registry.heartbeat('b', beatMs * 10); // b was frozen and woke up before anyone buried it
    expect(await registry.buryExpired(['b'])).toEqual([]);
    expect((await registry.heartbeat('a', beatMs * 10)).live).toEqual(['a', 'b']);
  });

  it('tells a replica it was removed while it believed itself listed (buried, or gone from Redis)', async () => {
    const { registry, beatMs } = subject();
    await registry.heartbeat('a', beatMs * 10);
    await registry.leave('a'); // what another replica does when a's connection is seen gone
    expect((await registry.heartbeat('a', beatMs * 10)).wasListed).toBe(false);
  });
}

describe('memoryReplicaRegistry', () => {
  const clock = new ManualClock();
  registryContract(() => ({
    registry: memoryReplicaRegistry(clock),
    beatMs: 1_000,
    pass: async (ms) => clock.advance(ms),
  }));
});

describe.skipIf(skipRedisTests())('redisReplicaRegistry on a real redis-server', () => {
  let runs = 0;
  const redis = sharedRedis();

  // Redis judges beats on its own clock (TIME against each beat's score). Time passes there by bringing every
  // beat's expiry nearer, not by sleeping: with 100 ms beats a loaded machine's round trip between b's beat and
  // a's next one could outlast b's beat, which the contract reads as b silent.
  registryContract(() => {
    runs += 1;
    const key = `registry${runs}`;
    const registry = redisReplicaRegistry(redis.client, { key });
    return {
      registry,
      beatMs: 60_000,
      pass: async (ms) => {
        for (const id of await redis.client.zRange(key, 0, -1)) await redis.client.zIncrBy(key, -ms, id);
      },
    };
  });

  it('shares the registry with replicas of the previous fundbot (their beats scored the same way)', async () => {
    const registry = redisReplicaRegistry(redis.client, { key: 'mixed' });
    // What the previous heartbeat script wrote: the id scored by the ms its beat expires (Redis is local here).
    await redis.client.zAdd('mixed', { score: Date.now() + 60_000, value: 'old-replica' });
    // Listed live, and not watched: it never named its connection, so only its beat can tell it dead.
    expect(await registry.heartbeat('new', 60_000, { watched: true })).toMatchObject({
      live: ['new', 'old-replica'],
      watched: ['new'],
    });
  });
});
