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
