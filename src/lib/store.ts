import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import type { z } from 'zod';

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
  /** Releases connections and file handles. */
  close(): Promise<void>;
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

/**
 * Opens the store named by a URL:
 * - `memory:` for tests and the demo,
 * - `sqlite://path/to/state.sqlite` (the default for one process),
 * - `redis://host:6379` for several replicas sharing state.
 */
export async function openStore(url: string): Promise<KeyValueStore> {
  if (url === 'memory:' || url === 'memory') return memoryStore();
  if (url.startsWith('sqlite://')) {
    const sqlite = new KeyvSqlite({ uri: url, table: 'fundbot', busyTimeout: 5000 });
    return keyvStore(new Keyv({ store: sqlite, namespace: 'fundbot' }));
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    // Loaded lazily: a single-process install never opens a Redis client.
    const { default: KeyvRedis } = await import('@keyv/redis');
    return keyvStore(new Keyv({ store: new KeyvRedis(url), namespace: 'fundbot' }));
  }
  throw new Error(
    `unknown store URL "${url}": use memory:, sqlite://path/to/state.sqlite or redis://host:port`,
  );
}
