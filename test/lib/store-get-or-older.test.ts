/**
 * Issue 33: a value and the older single value it replaces are read in one getMany (`getOrOlder`): on Redis one
 * MGET where two GETs went one after the other. A project's first run reads its state and its history that way
 * (test/engine/state/first-run-reads.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  getOrOlder,
  type KeyValueStore,
  memoryStore,
  openStore,
  StoredValueError,
} from '../../src/lib/store.js';
import { skipRedisTests } from '../support/redis-server.js';
import { sharedRedis } from '../support/shared-redis.js';

const current = z.object({ v: z.number() });
const older = z.array(z.string());

/** The rule on any store: the older value only when the current one is absent, each validated as `get` would. */
async function checkGetOrOlder(store: KeyValueStore, prefix: string): Promise<void> {
  const key = (name: string) => `${prefix}${name}`;
  await store.set(key('now'), { v: 1 });
  await store.set(key('old'), ['a']);
  await store.set(key('broken-old'), { not: 'a list' });
  expect(await getOrOlder(store, [key('now'), current], [key('old'), older])).toEqual([{ v: 1 }, undefined]);
  expect(await getOrOlder(store, [key('none'), current], [key('old'), older])).toEqual([undefined, ['a']]);
  expect(await getOrOlder(store, [key('none'), current], [key('none2'), older])).toEqual([
    undefined,
    undefined,
  ]);
  // An older value nobody uses is not judged; one that is used is, and so is the current one.
  expect(await getOrOlder(store, [key('now'), current], [key('broken-old'), older])).toEqual([
    { v: 1 },
    undefined,
  ]);
  await expect(getOrOlder(store, [key('none'), current], [key('broken-old'), older])).rejects.toThrow(
    StoredValueError,
  );
  await expect(getOrOlder(store, [key('old'), current], [key('none'), older])).rejects.toThrow(key('old'));
}

describe('getOrOlder', () => {
  it('reads the older value only for an absent current one, in memory', async () => {
    await checkGetOrOlder(memoryStore(), 'or-older/');
  });
});

describe.skipIf(skipRedisTests())('getOrOlder on a real redis-server', () => {
  const redis = sharedRedis();

  it('reads both in one MGET and no GET', async () => {
    const store = await openStore(redis.server.url);
    try {
      await checkGetOrOlder(store, 'or-older-redis/');
      await redis.client.configResetStat();
      await getOrOlder(store, ['or-older-redis/none', current], ['or-older-redis/old', older]);
      const stats = await redis.client.info('commandstats');
      const calls = (command: string) =>
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls('mget')).toBe(1);
      expect(calls('get')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
