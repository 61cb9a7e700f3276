import type { z } from 'zod';

/*
 * The store's port alone, types only: every store and every view of one (memory and Redis in
 * store.ts, SQLite in store-sqlite.ts, the observed, counted and change-stamped views) imports it
 * from here, and store.ts, which opens them all, re-exports it: no module imports the one that
 * imports it.
 */

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
  /**
   * Reads many keys in one go: the values in the keys' order, undefined where absent or expired, each
   * validated as {@link get} validates (a value failing its schema throws its StoredValueError). For reads
   * that touch every project at once (the store marker's start-up check: 2 keys × 3,000 projects). Cost:
   * Redis one MGET per GET_MANY_BATCH keys (store-value.ts) instead of one GET each; SQLite one
   * `SELECT … WHERE key IN (…)` per batch; memory one map lookup each.
   */
  getMany<T>(keys: readonly string[], schema: z.ZodType<T>): Promise<(T | undefined)[]>;
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
   * Deletes `key` only when its live value is the string `expected`, atomically: the compare and
   * the delete cannot be split by another caller's write (a lock released by its owner never
   * deletes the lock another holder took after it expired). True when it deleted.
   * Memory: serialized with the other conditional operations; SQLite: one conditional `DELETE` in
   * the group commit's transaction; Redis: one Lua script (GET, compare, DEL).
   */
  deleteIfValue(key: string, expected: string): Promise<boolean>;
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
