import Keyv from 'keyv';
import type { z } from 'zod';
import { keyvRedisOps } from './store-redis-ops.js';
import { openSqliteStore, type SqliteStoreOptions } from './store-sqlite.js';
import { keyContains, parseStored } from './store-value.js';

export {
  isStoreFailure,
  type ObservedStoreOptions,
  observedStore,
  type StoreOperation,
  type StoreOutcome,
  StoreTimeoutError,
} from './store-observed.js';
export { StoreClosedError, StoreFileReplacedError, SWEEP_SLICE_ROWS } from './store-sqlite.js';
export { StoredValueError } from './store-value.js';

/**
 * The one storage seam of fundbot. Everything durable (feed state, outbox,
 * history, subscriptions, locale settings) goes through this interface, so a
 * single process runs on an embedded SQLite file and a fleet of replicas on Redis
 * without any other code knowing which.
 *
 * Values are JSON. Reads are validated with a zod schema: a value written by an
 * older version or corrupted on disk becomes a {@link StoredValueError}, never a
 * silently wrong object.
 */
export interface KeyValueStore {
  get<T>(key: string, schema: z.ZodType<T>): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<boolean>;
  /**
   * Writes `value` under `key` only when no live value is there, atomically: of any number of
   * concurrent callers (on any replica sharing the store) exactly one gets true. An expired value
   * counts as absent. The replay guards and once-only marks are built on it.
   * Memory: one process, serialized; SQLite: one `INSERT … ON CONFLICT … WHERE expired` in the
   * group commit's transaction; Redis: `SET key value NX PX ttl`.
   */
  setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  /**
   * Deletes every value whose key starts with `prefix` (a workspace's settings when it uninstalls);
   * returns how many went. With `containing`, only those of them whose key also contains one of these
   * strings (a workspace's channels in keys led by an event id). Cost: SQLite one range delete (with
   * `containing`: the range read, then the matching keys deleted); Redis one SCAN over the keyspace (MATCH on
   * the prefix) plus one UNLINK per 500 keys, so use it for rare events only.
   */
  deletePrefix(prefix: string, containing?: readonly string[]): Promise<number>;
  /**
   * Deletes expired values in the next slice of the store (stores that expire values by
   * themselves, like Redis, do not have it). See src/lib/store-sweep.ts.
   */
  sweepExpired?(now: number): Promise<SweepSlice>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/** What one {@link KeyValueStore.sweepExpired} call did. */
export interface SweepSlice {
  readonly scanned: number;
  readonly deleted: number;
  /** True when the slice reached the end of the store (the next call starts at its beginning). */
  readonly wrapped: boolean;
}

/** A view of a store under a key prefix: `projects/solar-kiosk/` keeps projects apart. */
export function namespaced(store: KeyValueStore, prefix: string): KeyValueStore {
  const full = (key: string) => `${prefix}${key}`;
  return {
    get: (key, schema) => store.get(full(key), schema),
    set: (key, value, ttlMs) => store.set(full(key), value, ttlMs),
    delete: (key) => store.delete(full(key)),
    setIfAbsent: (key, value, ttlMs) => store.setIfAbsent(full(key), value, ttlMs),
    deletePrefix: (keyPrefix, containing) => store.deletePrefix(full(keyPrefix), containing),
    // A namespace does not own the connection: closing it is the root store's job.
    close: async () => {},
  };
}

/**
 * Adapts a keyv instance (memory or Redis) to {@link KeyValueStore}. Over @keyv/redis, set-if-absent is
 * Redis' own `SET NX PX` and a prefix delete a SCAN; over keyv's in-process Map both run serialized
 * behind one lock (one process: nothing else can interleave).
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
    const { redisKeyv } = await import('./redis-keyv.js');
    return keyvStore(
      redisKeyv({
        url,
        // Without this, a write issued while Redis is away is queued and applied minutes later,
        // after the caller was told it failed: fail at once and let the engine retry it.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 5_000,
          reconnectStrategy: (retries: number) => Math.min(250 * 2 ** retries, 5_000),
        },
      }),
    );
  }
  throw new Error(
    `unknown store URL "${url}": use memory:, sqlite://path/to/state.sqlite or redis://host:port`,
  );
}
