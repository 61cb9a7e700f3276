import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LEASE_TTL_MS } from '../../../src/lib/coordination/lease.js';
import { redisLease } from '../../../src/lib/coordination/redis-lease.js';
import { skipRedisTests } from '../../support/redis-server.js';
import { sharedRedis } from '../../support/shared-redis.js';
import { type LeaseSubject, leaseContract } from './lease-contract.js';

describe.skipIf(skipRedisTests())('redisLease on a real redis-server', () => {
  let subject: LeaseSubject;
  const errors: Error[] = [];
  const redis = sharedRedis({ flushBeforeEach: true, onError: (error) => errors.push(error) });

  beforeEach(async () => {
    const lease = redisLease(redis.client);
    subject = {
      lease,
      // Long: a 150 ms lease could run out between two round trips of one test on a loaded machine (then a
      // renewal got a new token, a second holder got in). Expiry is Redis's own, brought forward to 1 ms; the wait
      // is for the key to go, never a sleep.
      ttlMs: 60_000,
      expire: async (resource) => {
        await redis.client.pExpire(`fundbot:lease:{${resource}}`, 1);
        await vi.waitFor(async () => expect((await lease.holders([resource])).has(resource)).toBe(false), {
          timeout: 5_000,
          interval: 20,
        });
      },
      read: async (key) => (await redis.client.get(key)) ?? undefined,
    };
  });

  leaseContract(() => subject);

  it('defaults to a 30 s TTL', async () => {
    await subject.lease.acquire('p1', 'replica-a');
    const ttl = await redis.client.pTTL('fundbot:lease:{p1}');
    expect(ttl).toBeGreaterThan(DEFAULT_LEASE_TTL_MS - 5_000);
    expect(ttl).toBeLessThanOrEqual(DEFAULT_LEASE_TTL_MS);
  });

  it('writes the fenced value with its TTL', async () => {
    const grant = await subject.lease.acquire('p1', 'replica-a', 10_000);
    expect(
      await subject.lease.fencedSetAll('p1', grant!.token, [{ key: 'state/p1', value: 'v', ttlMs: 60_000 }]),
    ).toBe(true);
    expect(await redis.client.pTTL('state/p1')).toBeGreaterThan(50_000);
  });

  it('reads the holders of thousands of projects (batched past Lua stack limits)', async () => {
    const resources = Array.from({ length: 9_000 }, (_, i) => `p${i}`);
    for (const index of [0, 1_500, 8_999]) await subject.lease.acquire(`p${index}`, `r${index}`, 10_000);
    const holders = await subject.lease.holders(resources);
    expect([...holders.keys()]).toEqual(['p0', 'p1500', 'p8999']);
    expect(holders.get('p1500')?.holder).toBe('r1500');
    // Renewal and revocation batch the same way: one script per 1,000 leases.
    expect([...(await subject.lease.renewAll(resources, 'r8999', 10_000)).keys()]).toEqual(['p8999']);
    expect(await subject.lease.revoke(['r0', 'r8999'], resources)).toEqual(
      new Map([
        ['p0', 'r0'],
        ['p8999', 'r8999'],
      ]),
    );
    expect([...(await subject.lease.holders(resources)).keys()]).toEqual(['p1500']);
  });

  it('still hands out greater tokens after a Redis restart that lost every key', async () => {
    const before = await subject.lease.acquire('p1', 'replica-a', 60_000);
    await redis.server.restart();
    // node-redis reconnects by itself; the script cache is empty too, so this also covers the EVAL fallback.
    expect(await redis.client.dbSize()).toBe(0);
    const after = await subject.lease.acquire('p1', 'replica-b', 60_000);
    expect(after!.token).toBeGreaterThan(before!.token);
    // The paused holder from before the restart cannot commit over the new one.
    expect(await subject.lease.fencedSetAll('p1', before!.token, [{ key: 'state/p1', value: 'stale' }])).toBe(
      false,
    );
    expect(await subject.lease.fencedSetAll('p1', after!.token, [{ key: 'state/p1', value: 'fresh' }])).toBe(
      true,
    );
  });
});
