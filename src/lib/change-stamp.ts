import { z } from 'zod';
import type { KeyValueStore } from './store-port.js';

/**
 * A store view whose every write also writes a change stamp (a fresh random value
 * under `stampKey`). Readers that cache what they read through it (the delivery
 * pipeline's channel directory: subscriptions, languages, pacing, threads, access)
 * read the stamp once per round and drop their cache only when it changed, so a
 * notice costs one small read instead of re-reading every setting, and a change made
 * by a command on any replica is seen at the next round of every other.
 *
 * Cost: one extra write (~30 bytes) per settings write; settings change only through
 * admin commands and access changes, rarely.
 */
export function withChangeStamp(
  store: KeyValueStore,
  stampKey: string,
  newStamp: () => string,
): KeyValueStore {
  const stamp = () => store.set(stampKey, newStamp());
  return {
    get: (key, schema) => store.get(key, schema),
    getMany: (keys, schema) => store.getMany(keys, schema),
    async set(key, value, ttlMs) {
      await store.set(key, value, ttlMs);
      await stamp();
    },
    async delete(key) {
      const deleted = await store.delete(key);
      if (deleted) await stamp();
      return deleted;
    },
    async setIfAbsent(key, value, ttlMs) {
      const added = await store.setIfAbsent(key, value, ttlMs);
      if (added) await stamp();
      return added;
    },
    async deleteIfValue(key, expected) {
      const deleted = await store.deleteIfValue(key, expected);
      if (deleted) await stamp();
      return deleted;
    },
    async deletePrefix(prefix, containing) {
      const deleted = await store.deletePrefix(prefix, containing);
      if (deleted > 0) await stamp();
      return deleted;
    },
    // A view does not own the connection.
    close: async () => {},
  };
}

/** The current change stamp, or undefined before the first write. */
export function readChangeStamp(store: KeyValueStore, stampKey: string): Promise<string | undefined> {
  return store.get(stampKey, z.string());
}

/**
 * Reads kept in memory until the change stamp moves: the one cache rule of every reader of stamped settings (the
 * delivery's channel directory, the campaign checks). `refresh` reads the stamp once (a round) and drops every
 * kept read when it moved; `keep` gives the kept read of a key or starts it. A failed read is not kept, and a
 * failed stamp read drops everything before it is thrown, so nothing stale outlives a store that could not say.
 */
export class StampedCache {
  readonly #store: KeyValueStore;
  readonly #stampKey: string;
  #seen: string | undefined;
  #checked = false;
  readonly #kept = new Map<string, Promise<unknown>>();

  constructor(store: KeyValueStore, stampKey: string) {
    this.#store = store;
    this.#stampKey = stampKey;
  }

  /** One read of the stamp; true when the kept reads were dropped (the stamp moved, or this is the first round). */
  async refresh(): Promise<boolean> {
    let current: string | undefined;
    try {
      current = await readChangeStamp(this.#store, this.#stampKey);
    } catch (error) {
      this.drop();
      throw error;
    }
    if (this.#checked && current === this.#seen) return false;
    this.#seen = current;
    this.#checked = true;
    this.#kept.clear();
    return true;
  }

  /** Forgets every kept read (this process changed a setting itself and must not wait for the next round). */
  drop(): void {
    this.#checked = false;
    this.#kept.clear();
  }

  /** The kept read of `key`, or `read()` started and kept (dropped again if it fails). */
  keep<T>(key: string, read: () => Promise<T>): Promise<T> {
    const kept = this.#kept.get(key) as Promise<T> | undefined;
    if (kept !== undefined) return kept;
    const reading = read();
    this.#kept.set(key, reading);
    reading.catch(() => {
      if (this.#kept.get(key) === reading) this.#kept.delete(key);
    });
    return reading;
  }
}
