/**
 * Issue 31: `deleteIfValue` (compare-and-delete) is atomic in every store (memory, SQLite files, a
 * real redis-server), and the store lock is released with it, so a holder whose lock expired during
 * a slow change never deletes the lock the next holder took.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type KeyValueStore,
  memoryStore,
  namespaced,
  observedStore,
  openStore,
} from '../../src/lib/store.js';
import { withStoreLock } from '../../src/lib/store-lock.js';
import { skipRedisTests } from '../support/redis-server.js';
import { sharedRedis } from '../support/shared-redis.js';
import { sqliteFilesPerBlock } from './sqlite-files.js';

const anything = z.unknown();
const callers = 40;

/** The same checks for every store, `replicas` connections to it. */
async function checkStore(open: () => Promise<KeyValueStore>, replicas: number): Promise<void> {
  const stores = await Promise.all(Array.from({ length: replicas }, open));
  const [first, other = first] = stores as [KeyValueStore, KeyValueStore?];
  try {
    // Deletes only on the exact value, and says whether it did.
    await first.set('lock/a', 'owner-1', 60_000);
    expect(await other.deleteIfValue('lock/a', 'owner-2')).toBe(false);
    expect(await first.get('lock/a', anything)).toBe('owner-1');
    expect(await other.deleteIfValue('lock/a', 'owner-1')).toBe(true);
    expect(await first.get('lock/a', anything)).toBeUndefined();
    expect(await first.deleteIfValue('lock/a', 'owner-1')).toBe(false);

    // Values that only look alike are not equal: a number, an object, a string keyv escapes (':…').
    await first.set('lock/n', 1);
    expect(await first.deleteIfValue('lock/n', '1')).toBe(false);
    await first.set('lock/o', { owner: 'x' });
    expect(await first.deleteIfValue('lock/o', '{"owner":"x"}')).toBe(false);
    await first.set('lock/colon', ':owner');
    expect(await other.deleteIfValue('lock/colon', 'owner')).toBe(false);
    expect(await other.deleteIfValue('lock/colon', ':owner')).toBe(true);

    // Through a namespace and an observed view, on a value set-if-absent wrote (the lock's own write).
    const view = observedStore(namespaced(first, 'settings/'), { onOutcome: () => {} });
    expect(await view.setIfAbsent('#lock', 'token', 60_000)).toBe(true);
    expect(await namespaced(other, 'settings/').deleteIfValue('#lock', 'token')).toBe(true);
    expect(await first.get('settings/#lock', anything)).toBeUndefined();

    // Of N concurrent compare-and-deletes of one value on every connection, exactly one deletes; a
    // set-if-absent racing them either lands before (and survives) or after (and survives).
    await first.set('lock/race', 'held', 60_000);
    const answers = await Promise.all(
      Array.from({ length: callers }, (_, i) =>
        stores[i % stores.length]?.deleteIfValue('lock/race', 'held'),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(1);
    const [, retaken] = await Promise.all([
      other.deleteIfValue('lock/race', 'held'),
      first.setIfAbsent('lock/race', 'next-holder', 60_000),
    ]);
    expect(retaken).toBe(true);
    expect(await other.deleteIfValue('lock/race', 'held')).toBe(false);
    expect(await first.get('lock/race', anything)).toBe('next-holder');

    // An expired value is gone: nothing to delete.
    await first.set('lock/short', 'owner', 30);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await other.deleteIfValue('lock/short', 'owner')).toBe(false);

    await checkLock(stores);
  } finally {
    for (const store of stores) await store.close();
  }
}

/** The store lock on these connections: changes never overlap, and a late release frees nothing it no longer owns. */
async function checkLock(stores: readonly KeyValueStore[]): Promise<void> {
  const [first, other = first] = stores as [KeyValueStore, KeyValueStore?];
  let inside = 0;
  let overlapped = false;
  await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      withStoreLock(stores[i % stores.length] as KeyValueStore, 'list#lock', async () => {
        inside += 1;
        overlapped ||= inside > 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside -= 1;
      }),
    ),
  );
  expect(overlapped).toBe(false);
  expect(await first.get('list#lock', anything)).toBeUndefined();

  // A holder slower than its lock's life: the lock expires, another caller takes it, and the slow
  // holder's release must leave the new holder's lock in place.
  let secondHolds: () => void = () => {};
  const secondTook = new Promise<void>((resolve) => {
    secondHolds = resolve;
  });
  let releaseSecond: () => void = () => {};
  const secondMayFinish = new Promise<void>((resolve) => {
    releaseSecond = resolve;
  });
  const slow = withStoreLock(
    first,
    'slow#lock',
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      const second = withStoreLock(other, 'slow#lock', async () => {
        secondHolds();
        await secondMayFinish;
      });
      await secondTook;
      // Wrapped: returning the promise itself would make this change wait for the second holder.
      return { second };
    },
    { ttlMs: 40 },
  );
  const { second } = await slow;
  // The slow holder has released (or tried to): the second holder's lock is still there.
  expect(await first.get('slow#lock', anything)).toEqual(expect.any(String));
  releaseSecond();
  await second;
  expect(await first.get('slow#lock', anything)).toBeUndefined();
}

describe('deleteIfValue and the store lock in memory', () => {
  it('compares and deletes atomically; the lock is released only by its owner', async () => {
    const shared = memoryStore();
    await checkStore(async () => ({ ...shared, close: async () => {} }), 2);
    await shared.close();
  });
});

describe('deleteIfValue and the store lock on SQLite files', () => {
  const files = sqliteFilesPerBlock('fundbot-delete-if-value-');

  it('one store: the compare-and-deletes of one group commit run in order', async () => {
    await checkStore(() => openStore(files.url('one.sqlite')), 1);
  });

  it('two connections on one file (two processes)', async () => {
    await checkStore(() => openStore(files.url('two.sqlite')), 2);
  });

  it('a queued compare-and-delete is not read through before its commit says whether it landed', async () => {
    const store = await openStore(files.url('queued.sqlite'));
    try {
      await store.set('k', 'v');
      const deleting = store.deleteIfValue('k', 'v');
      const seen = await store.get('k', anything);
      expect(await deleting).toBe(true);
      expect(seen).toBe('v');
      expect(await store.get('k', anything)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(skipRedisTests())('deleteIfValue and the store lock on a real redis-server', () => {
  const redis = sharedRedis();

  it('three replicas (three connections): one Lua script compares and deletes', async () => {
    await checkStore(() => openStore(redis.server.url), 3);
  });
});
