import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { z } from 'zod';
import { type Clock, systemClock } from './clock.js';

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

export class StoredValueError extends Error {
  override readonly name = 'StoredValueError';
  constructor(
    readonly key: string,
    readonly issues: string,
    options?: ErrorOptions,
  ) {
    super(
      `stored value under "${key}" does not match its schema (${issues}); delete the key or the state file to rebuild it`,
      options,
    );
  }
}

/** A view of a store under a key prefix: `projects/solar-kiosk/` keeps projects apart. */
export function namespaced(store: KeyValueStore, prefix: string): KeyValueStore {
  const full = (key: string) => `${prefix}${key}`;
  return {
    get: (key, schema) => store.get(full(key), schema),
    set: (key, value, ttlMs) => store.set(full(key), value, ttlMs),
    delete: (key) => store.delete(full(key)),
    // A namespace does not own the connection: closing it is the root store's job.
    close: async () => {},
  };
}

/** Adapts any keyv instance (memory, SQLite, Redis) to {@link KeyValueStore}. */
export function keyvStore(keyv: Keyv): KeyValueStore {
  return {
    async get(key, schema) {
      const raw: unknown = await keyv.get(key);
      if (raw === undefined || raw === null) return undefined;
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issues = parsed.error.issues
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; ');
        throw new StoredValueError(key, issues);
      }
      return parsed.data;
    },
    async set(key, value, ttlMs) {
      await keyv.set(key, value, ttlMs);
    },
    async delete(key) {
      return keyv.delete(key);
    },
    async close() {
      await keyv.disconnect();
    },
  };
}

export function memoryStore(): KeyValueStore {
  return keyvStore(new Keyv());
}

/** The store did not answer within {@link ObservedStoreOptions.timeoutMs}. */
export class StoreTimeoutError extends Error {
  override readonly name = 'StoreTimeoutError';
  constructor(
    readonly operation: StoreOperation,
    readonly timeoutMs: number,
  ) {
    super(`the store did not answer a ${operation} within ${timeoutMs} ms`);
  }
}

export type StoreOperation = 'get' | 'set' | 'delete';

/** The outcome of one store operation, for health and logs. Carries no key and no value. */
export interface StoreOutcome {
  readonly operation: StoreOperation;
  /** False when the store threw or timed out; a value failing its schema still counts as answered. */
  readonly ok: boolean;
  readonly durationMs: number;
  readonly error?: unknown;
}

export interface ObservedStoreOptions {
  /** Longest wait for one operation (default 5 s): a Redis that is not there fails fast instead of hanging. */
  readonly timeoutMs?: number;
  readonly clock?: Clock;
  /** Called after every operation, success or failure. Must not throw. */
  readonly onOutcome: (outcome: StoreOutcome) => void;
}

/**
 * Wraps a store so every operation is bounded in time and reports its outcome:
 * the health endpoint and the error log are built on these outcomes. A timed-out
 * operation rejects with {@link StoreTimeoutError}; the callers (the engine)
 * already treat a failed read or write as a crash before it, so nothing is
 * skipped. Costs nothing in store bytes or requests.
 */
export function observedStore(inner: KeyValueStore, options: ObservedStoreOptions): KeyValueStore {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const clock = options.clock ?? systemClock;
  const run = async <T>(operation: StoreOperation, call: () => Promise<T>): Promise<T> => {
    const startedAt = clock.now();
    const timer = new AbortController();
    try {
      const result = await Promise.race([
        call(),
        clock.sleep(timeoutMs, timer.signal).then(
          () => {
            throw new StoreTimeoutError(operation, timeoutMs);
          },
          () => new Promise<never>(() => {}), // aborted: the operation settled first
        ),
      ]);
      options.onOutcome({ operation, ok: true, durationMs: clock.now() - startedAt });
      return result;
    } catch (error) {
      // A stored value failing its schema is a data problem: the store itself answered.
      const ok = error instanceof StoredValueError;
      options.onOutcome({ operation, ok, durationMs: clock.now() - startedAt, ...(ok ? {} : { error }) });
      throw error;
    } finally {
      timer.abort(new Error('store operation settled'));
    }
  };
  return {
    get: (key, schema) => run('get', () => inner.get(key, schema)),
    set: (key, value, ttlMs) => run('set', () => inner.set(key, value, ttlMs)),
    delete: (key) => run('delete', () => inner.delete(key)),
    ...(inner.sweepExpired ? { sweepExpired: inner.sweepExpired.bind(inner) } : {}),
    close: () => inner.close(),
  };
}

/** Rows one sweep slice reads: bounds the time one statement holds the SQLite file. */
export const SWEEP_SLICE_ROWS = 5_000;

/**
 * keyv deletes an expired SQLite row only when it is read again; a delivery record nobody
 * reads stays forever. This deletes them, one slice of rows (by rowid, from where the last
 * slice stopped) per call: a row is expired when keyv's serialized value carries an `expires`
 * at or before `now` (the text test skips the JSON parse of rows without one).
 */
function sqliteSweeper(sqlite: KeyvSqlite, table: string): (now: number) => Promise<SweepSlice> {
  let after = 0;
  return async (now) => {
    const window = `SELECT rowid FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${SWEEP_SLICE_ROWS}`;
    const [bounds] = (await sqlite.query(
      `SELECT count(*) AS n, max(rowid) AS last FROM (${window})`,
      after,
    )) as { n: number; last: number | null }[];
    const scanned = bounds?.n ?? 0;
    const last = bounds?.last ?? null;
    if (scanned === 0 || last === null) {
      after = 0;
      return { scanned: 0, deleted: 0, wrapped: true };
    }
    const deleted = (await sqlite.query(
      `DELETE FROM ${table} WHERE rowid > ? AND rowid <= ? AND instr(value, '"expires":') > 0
         AND (CASE WHEN json_valid(value) THEN json_extract(value, '$.expires') END) <= ? RETURNING rowid`,
      after,
      last,
      now,
    )) as unknown[];
    const wrapped = scanned < SWEEP_SLICE_ROWS;
    after = wrapped ? 0 : last;
    return { scanned, deleted: deleted.length, wrapped };
  };
}

/**
 * Opens the store named by a URL:
 * - `memory:` for tests and the demo,
 * - `sqlite://path/to/state.sqlite` (the default for one process),
 * - `redis://host:6379` for several replicas sharing state.
 */
export async function openStore(url: string): Promise<KeyValueStore> {
  if (url === 'memory:' || url === 'memory') return memoryStore();
  // keyv's default turns every failure into "not found": a full disk or a stopped Redis would look
  // like an empty store and the engine would announce everything again. throwOnErrors makes it fail.
  if (url.startsWith('sqlite://')) {
    const sqlite = new KeyvSqlite({ uri: url, table: 'fundbot', busyTimeout: 5000 });
    const store = keyvStore(new Keyv({ store: sqlite, namespace: 'fundbot', throwOnErrors: true }));
    return { ...store, sweepExpired: sqliteSweeper(sqlite, 'fundbot') };
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    // Loaded lazily: a single-process install never opens a Redis client.
    const { default: KeyvRedis } = await import('@keyv/redis');
    const redis = new KeyvRedis(
      {
        url,
        // Without this, a write issued while Redis is away is queued and applied minutes later,
        // after the caller was told it failed: fail at once and let the engine retry it.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: 5_000,
          reconnectStrategy: (retries: number) => Math.min(250 * 2 ** retries, 5_000),
        },
      },
      { throwOnErrors: true, throwOnConnectError: true, connectionTimeout: 5_000 },
    );
    return keyvStore(new Keyv({ store: redis, namespace: 'fundbot', throwOnErrors: true }));
  }
  throw new Error(
    `unknown store URL "${url}": use memory:, sqlite://path/to/state.sqlite or redis://host:port`,
  );
}
