/**
 * Issue 33: `getMany` reads many keys in one go on every store (memory, a SQLite file, a real redis-server), with
 * what `get` would answer for each key (order kept, absent and expired as undefined, each value validated), and
 * on Redis as one MGET per GET_MANY_BATCH keys, not one GET each (the store marker's start-up check on 3,000
 * projects: 6,000 GETs became 12 commands).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  GET_MANY_BATCH,
  type KeyValueStore,
  memoryStore,
  namespaced,
  observedStore,
  openStore,
  StoredValueError,
} from '../../src/lib/store.js';
import { skipRedisTests } from '../support/redis-server.js';
import { sharedRedis } from '../support/shared-redis.js';
import { sqliteFilesPerBlock } from './sqlite-files.js';

const anything = z.unknown();
/** More than two batches, so the last one is short. */
const keyCount = GET_MANY_BATCH * 2 + 37;

/** The same answers as `get` for every store: order, absence, expiry, views, schema failures. */
async function checkGetMany(store: KeyValueStore): Promise<void> {
  const keys = Array.from({ length: keyCount }, (_, i) => `many/${String(i).padStart(4, '0')}`);
  // Every third key absent; the others hold a mix of kinds (a string keyv escapes, numbers, objects).
  const written = keys.filter((_, i) => i % 3 !== 0);
  await Promise.all(
    written.map((key, i) => store.set(key, i % 2 === 0 ? { key, n: i } : i % 5 === 0 ? `:${key}` : i)),
  );
  await store.set('many/short', 'gone soon', 30);
  await new Promise((resolve) => setTimeout(resolve, 80));

  const asked = [...keys].reverse().concat('many/short', 'many/never');
  const many = await store.getMany(asked, anything);
  const one = await Promise.all(asked.map((key) => store.get(key, anything)));
  expect(many).toEqual(one);
  expect(many.filter((v) => v !== undefined)).toHaveLength(written.length);
  expect(many.at(-2)).toBeUndefined();
  expect(await store.getMany([], anything)).toEqual([]);

  // Through a namespace and an observed view, as the bot's stores are reached.
  const view = observedStore(namespaced(store, 'many/'), { onOutcome: () => {} });
  expect(await view.getMany(['0001', '0003', 'never'], anything)).toEqual([
    await store.get('many/0001', anything),
    undefined,
    undefined,
  ]);

  // A value failing its schema fails the read as `get` does, naming its key.
  const numbers = store.getMany(['many/0001', 'many/0002'], z.number());
  await expect(numbers).rejects.toBeInstanceOf(StoredValueError);
  await expect(numbers).rejects.toThrow('many/0001');
}

describe('getMany in memory', () => {
  it('answers as get does, key by key', async () => {
    const store = memoryStore();
    await checkGetMany(store);
    await store.close();
  });
});

describe('getMany on a SQLite file', () => {
  const files = sqliteFilesPerBlock('fundbot-get-many-');

  it('answers as get does, one SELECT … IN per batch', async () => {
    const store = await openStore(files.url('many.sqlite'));
    try {
      await checkGetMany(store);
    } finally {
      await store.close();
    }
  });

  it('reads through writes queued for the next commit, as get does', async () => {
    const store = await openStore(files.url('queued.sqlite'));
    try {
      await store.set('k/kept', 'old');
      await store.set('k/deleted', 'there');
      const writes = [store.set('k/kept', 'new'), store.set('k/new', 1), store.delete('k/deleted')];
      // A queued compare-and-delete is not read through: whether it lands is the commit's to say.
      await store.set('k/cas', 'v');
      const cas = store.deleteIfValue('k/cas', 'v');
      const seen = await store.getMany(['k/kept', 'k/new', 'k/deleted', 'k/cas'], anything);
      await Promise.all([...writes, cas]);
      expect(seen).toEqual(['new', 1, undefined, 'v']);
      expect(await store.getMany(['k/kept', 'k/new', 'k/deleted', 'k/cas'], anything)).toEqual([
        'new',
        1,
        undefined,
        undefined,
      ]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(skipRedisTests())('getMany on a real redis-server', () => {
  const redis = sharedRedis();

  it('answers as get does, with one MGET per batch and no GET', async () => {
    const store = await openStore(redis.server.url);
    try {
      await checkGetMany(store);
      await redis.client.configResetStat();
      await store.getMany(
        Array.from({ length: keyCount }, (_, i) => `many/${i}`),
        anything,
      );
      const stats = await redis.client.info('commandstats');
      const calls = (command: string) =>
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls('mget')).toBe(Math.ceil(keyCount / GET_MANY_BATCH));
      expect(calls('get')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
