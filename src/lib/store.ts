import Keyv from 'keyv';
import type { KeyValueStore } from './store-port.js';
import { keyvRedisOps } from './store-redis-ops.js';
import { openSqliteStore, type SqliteStoreOptions } from './store-sqlite.js';
import { GET_MANY_BATCH, keyContains, parseStored, parseStoredMany, slicesOf } from './store-value.js';

export {
  isStoreFailure,
  type ObservedStoreOptions,
  observedStore,
  type StoreOperation,
  type StoreOutcome,
  StoreTimeoutError,
} from './store-observed.js';
export type { KeyValueStore, SweepSlice } from './store-port.js';
export { StoreClosedError, StoreFileReplacedError, SWEEP_SLICE_ROWS } from './store-sqlite.js';
export { GET_MANY_BATCH, getOrOlder, StoredValueError, slicesOf } from './store-value.js';

/** A view of a store under a key prefix: `projects/solar-kiosk/` keeps projects apart. */
export function namespaced(store: KeyValueStore, prefix: string): KeyValueStore {
  const full = (key: string) => `${prefix}${key}`;
  return {
    get: (key, schema) => store.get(full(key), schema),
    getMany: (keys, schema) => store.getMany(keys.map(full), schema),
    set: (key, value, ttlMs) => store.set(full(key), value, ttlMs),
    delete: (key) => store.delete(full(key)),
    setIfAbsent: (key, value, ttlMs) => store.setIfAbsent(full(key), value, ttlMs),
    deleteIfValue: (key, expected) => store.deleteIfValue(full(key), expected),
    deletePrefix: (keyPrefix, containing) => store.deletePrefix(full(keyPrefix), containing),
    // A namespace does not own the connection: closing it is the root store's job.
    close: async () => {},
  };
}

/**
 * Adapts a keyv instance (memory or Redis) to {@link KeyValueStore}. Over @keyv/redis, set-if-absent is
 * Redis' own `SET NX PX`, a compare-and-delete a Lua script and a prefix delete a SCAN; over keyv's
 * in-process Map all three run serialized behind one lock (one process: nothing else can interleave).
 */
export function keyvStore(keyv: Keyv): KeyValueStore {
  const redis = keyvRedisOps(keyv);
  let lock: Promise<unknown> = Promise.resolve();
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const result = lock.then(run, run);
    lock = result.catch(() => undefined);
    return result;
  };
  return {
    async get(key, schema) {
      // KeyvRedis connects lazily and hands a still-connecting client to concurrent first callers: with the
      // offline queue off their commands would fail as "offline". Ready is one boolean check once connected.
      await redis?.ready();
      const raw: unknown = await keyv.get(key);
      if (raw === undefined || raw === null) return undefined;
      return parseStored(key, raw, schema);
    },
    async getMany(keys, schema) {
      await redis?.ready();
      // keyv's getMany is one MGET over @keyv/redis (a lookup each over its in-process Map); expired ones read absent.
      const raws: unknown[] = [];
      for (const slice of slicesOf(keys, GET_MANY_BATCH)) raws.push(...(await keyv.getMany(slice)));
      return parseStoredMany(keys, raws, schema);
    },
    async set(key, value, ttlMs) {
      await redis?.ready();
      await keyv.set(key, value, ttlMs);
    },
    async delete(key) {
      await redis?.ready();
      return keyv.delete(key);
    },
    setIfAbsent(key, value, ttlMs) {
      if (redis) return redis.setIfAbsent(key, value, ttlMs);
      return serialized(async () => {
        const existing: unknown = await keyv.get(key);
        if (existing !== undefined && existing !== null) return false;
        await keyv.set(key, value, ttlMs);
        return true;
      });
    },
    deleteIfValue(key, expected) {
      if (redis) return redis.deleteIfValue(key, expected);
      return serialized(async () => {
        const current: unknown = await keyv.get(key);
        return current === expected ? keyv.delete(key) : false;
      });
    },
    deletePrefix(prefix, containing) {
      if (redis) return redis.deletePrefix(prefix, containing);
      return serialized(async () => {
        const keys: string[] = [];
        for await (const [key] of keyv.iterator?.(undefined) ?? []) {
          if (typeof key === 'string' && key.startsWith(prefix) && keyContains(key, containing))
            keys.push(key);
        }
        for (const key of keys) await keyv.delete(key);
        return keys.length;
      });
    },
    async close() {
      await keyv.disconnect();
    },
  };
}

export function memoryStore(): KeyValueStore {
  return keyvStore(new Keyv());
}

/**
 * Opens the store named by a URL:
 * - `memory:` for tests and the demo,
 * - `sqlite://path/to/state.sqlite` (the default for one process),
 * - `redis://host:6379` for several replicas sharing state.
 */
export async function openStore(url: string, options: SqliteStoreOptions = {}): Promise<KeyValueStore> {
  if (url === 'memory:' || url === 'memory') return memoryStore();
  if (url.startsWith('sqlite://')) return openSqliteStore(url.slice('sqlite://'.length), options);
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const [{ redisKeyv }, { redisReconnectStrategy }] = await Promise.all([
      import('./redis-keyv.js'),
      import('./coordination/redis-client.js'),
    ]);
    return keyvStore(
      redisKeyv({
        url,
        // Without this, a write issued while Redis is away is queued and applied minutes later,
        // after the caller was told it failed: fail at once and let the engine retry it.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 5_000,
          reconnectStrategy: redisReconnectStrategy(),
        },
      }),
    );
  }
  throw new Error(
    `unknown store URL "${url}": use memory:, sqlite://path/to/state.sqlite or redis://host:port`,
  );
}
