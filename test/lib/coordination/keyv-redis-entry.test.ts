import KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { systemClock } from '../../../src/lib/clock.js';
import { keyvRedisEncoder } from '../../../src/lib/coordination/keyv-redis-entry.js';
import { redisLease } from '../../../src/lib/coordination/redis-lease.js';
import { keyvStore } from '../../../src/lib/store.js';
import { skipRedisTests } from '../../support/redis-server.js';
import { sharedRedis } from '../../support/shared-redis.js';

const stateSchema = z.object({ cursor: z.string(), seen: z.array(z.number()) });

describe.skipIf(skipRedisTests())(
  'fenced writes that the keyv store reads back, on a real redis-server',
  () => {
    let keyv: Keyv;
    const redis = sharedRedis({ flushBeforeEach: true });

    beforeEach(async () => {
      // One client for the store and the leases, as the lead wires it: new KeyvRedis(client).
      keyv = new Keyv({ store: new KeyvRedis(redis.client), namespace: 'fundbot' });
    });

    it('encodes the key and value exactly as keyv.set stores them', async () => {
      const encode = keyvRedisEncoder(keyv, systemClock);
      await keyv.set('projects/solar-kiosk/state', { cursor: ':odd', seen: [1, 2] });
      const [stored] = await redis.client.keys('*');
      const entry = await encode('projects/solar-kiosk/state', { cursor: ':odd', seen: [1, 2] });
      expect(entry.key).toBe(stored);
      expect(entry.value).toBe(await redis.client.get(stored!));
    });

    it("commits a project's state through fencedSetAll for the keyv store to read, and refuses a stale token", async () => {
      const lease = redisLease(redis.client);
      const store = keyvStore(keyv);
      const encode = keyvRedisEncoder(keyv, systemClock);
      const key = 'projects/solar-kiosk/state';

      const a = await lease.acquire('solar-kiosk', 'replica-a', 60_000);
      const first = await encode(key, { cursor: 'c1', seen: [1] });
      expect(
        await lease.fencedSetAll('solar-kiosk', a!.token, [{ key: first.key, value: first.value }]),
      ).toBe(true);
      expect(await store.get(key, stateSchema)).toEqual({ cursor: 'c1', seen: [1] });

      await lease.release('solar-kiosk', 'replica-a');
      const b = await lease.acquire('solar-kiosk', 'replica-b', 60_000);
      const stale = await encode(key, { cursor: 'stale', seen: [] });
      expect(
        await lease.fencedSetAll('solar-kiosk', a!.token, [{ key: stale.key, value: stale.value }]),
      ).toBe(false);
      const fresh = await encode(key, { cursor: 'c2', seen: [1, 2] });
      expect(
        await lease.fencedSetAll('solar-kiosk', b!.token, [{ key: fresh.key, value: fresh.value }]),
      ).toBe(true);
      expect(await store.get(key, stateSchema)).toEqual({ cursor: 'c2', seen: [1, 2] });
    });

    it('carries a TTL the way keyv does (PX in Redis, expires in the value)', async () => {
      const encode = keyvRedisEncoder(keyv, systemClock);
      const lease = redisLease(redis.client);
      const grant = await lease.acquire('p', 'replica-a', 60_000);
      const entry = await encode('outbox/x', 'queued', 120_000);
      expect(
        await lease.fencedSetAll('p', grant!.token, [{ key: entry.key, value: entry.value, ttlMs: 120_000 }]),
      ).toBe(true);
      expect(await redis.client.pTTL(entry.key)).toBeGreaterThan(100_000);
      expect(await keyvStore(keyv).get('outbox/x', z.string())).toBe('queued');
    });

    it('refuses a Keyv that is not on Redis', () => {
      expect(() => keyvRedisEncoder(new Keyv(), systemClock)).toThrow(/redis:\/\/ store/);
    });
  },
);
