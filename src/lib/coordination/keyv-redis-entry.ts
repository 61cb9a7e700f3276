import KeyvRedis from '@keyv/redis';
import type Keyv from 'keyv';
import type { Clock } from '../clock.js';

/** A value as a Keyv over KeyvRedis stores it: the raw Redis key and string. */
export interface KeyvRedisEntry {
  readonly key: string;
  readonly value: string;
}

/**
 * Encodes `value` under `key` exactly as `keyv.set(key, value, ttlMs)` would store it in Redis, so a
 * {@link Lease.fencedSetAll} (a Lua script, which cannot go through keyv) writes state the store reads back:
 * the engine's conditional commit on a `redis://` store is
 * `lease.fencedSetAll(project, token, [{ ...entry, ttlMs }])` with `entry = await encode(key, value, ttlMs)`.
 *
 * It uses keyv's own prefixing and serializer (`_getKeyPrefix`, `serializeData`: public in keyv 5's types)
 * and KeyvRedis' `createKeyPrefix`; the round-trip test against a real Redis fails if an upgrade changes them.
 * Throws for a Keyv not backed by KeyvRedis, or whose serializer does not produce strings.
 */
export function keyvRedisEncoder(
  keyv: Keyv,
  clock: Clock,
): (key: string, value: unknown, ttlMs?: number) => Promise<KeyvRedisEntry> {
  const store: unknown = keyv.store;
  if (!(store instanceof KeyvRedis)) {
    throw new Error(
      'keyvRedisEncoder needs a Keyv over @keyv/redis: fenced writes exist only on a redis:// store',
    );
  }
  return async (key, value, ttlMs) => {
    const expires = ttlMs === undefined ? undefined : clock.now() + ttlMs;
    const serialized = await keyv.serializeData({ value, expires });
    if (typeof serialized !== 'string') {
      throw new Error('keyvRedisEncoder needs keyv to serialize to strings (its default serializer does)');
    }
    return { key: store.createKeyPrefix(keyv._getKeyPrefix(key), store.namespace), value: serialized };
  };
}
