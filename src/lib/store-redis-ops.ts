import KeyvRedis from '@keyv/redis';
import type Keyv from 'keyv';
import { systemClock } from './clock.js';
import { keyvRedisEncoder } from './coordination/keyv-redis-entry.js';
import { RedisScript, type RedisScriptClient } from './coordination/redis-script.js';
import { keyContains } from './store-value.js';

/** The store operations keyv has no word for, done with Redis' own commands on the store's connection. */
export interface KeyvRedisOps {
  /** Resolves once the connection is ready (bounded): keyv's own operations then do not fail as "offline". */
  ready(): Promise<void>;
  setIfAbsent(key: string, value: unknown, ttlMs: number): Promise<boolean>;
  deleteIfValue(key: string, expected: string): Promise<boolean>;
  deletePrefix(prefix: string, containing?: readonly string[]): Promise<number>;
}

/** The node-redis commands used here (the client type of @keyv/redis is a union with the cluster's). */
interface RawClient extends RedisScriptClient {
  readonly isReady: boolean;
  once(event: 'ready', listener: () => void): unknown;
  set(
    key: string,
    value: string,
    options: { condition: 'NX'; expiration: { type: 'PX'; value: number } },
  ): Promise<string | null>;
  scan(
    cursor: string,
    options: { MATCH: string; COUNT: number },
  ): Promise<{ cursor: string | number; keys: string[] }>;
  unlink(keys: string[]): Promise<number>;
}

/**
 * Compare-and-delete in the server: the entry is keyv's JSON `{"value": …, "expires": …}`, so the
 * script decodes it and compares its `value` with ARGV[1] (the expected string as keyv's serializer
 * writes it), and deletes only on a match. One script: no other command runs between GET and DEL.
 */
const deleteIfValueScript = new RedisScript(`
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local ok, entry = pcall(cjson.decode, raw)
if not ok or type(entry) ~= 'table' or entry.value ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
`);

/** Keys deleted per UNLINK, and asked for per SCAN step. */
const batch = 500;

/** A Redis glob matching exactly the keys that start with `literal`. */
function globPrefix(literal: string): string {
  return `${literal.replace(/[\\*?[\]]/g, (c) => `\\${c}`)}*`;
}

/**
 * For a Keyv over @keyv/redis: set-if-absent as `SET key value NX PX ttl` (atomic in the server: of any
 * number of concurrent callers on any replica exactly one gets OK), written in keyv's own encoding so
 * `get` reads it back; a compare-and-delete as one Lua script; a prefix delete as SCAN MATCH + UNLINK.
 * Undefined for any other Keyv.
 */
export function keyvRedisOps(keyv: Keyv): KeyvRedisOps | undefined {
  const store: unknown = keyv.store;
  if (!(store instanceof KeyvRedis)) return undefined;
  // keyv checks expiry against Date.now(): the encoded `expires` must use the same clock.
  const encode = keyvRedisEncoder(keyv, systemClock);
  // Connected on first use, as keyv's own operations do (KeyvRedis connects lazily). getClient() hands
  // back a client that is still connecting to every caller but the first, and with the offline queue
  // off a command sent then fails: wait (bounded) until it is ready.
  // Only the first connection is waited for: once it was up, an outage fails at once (no offline queue), as
  // the observed store and /healthz expect.
  // One wait shared by every caller: a listener each (a thousand projects starting at once) tripped
  // Node's MaxListeners warning on the client.
  let wasReady = false;
  let firstReady: Promise<void> | undefined;
  const connected = async (): Promise<RawClient> => {
    const client = (await store.getClient()) as unknown as RawClient;
    if (!client.isReady && !wasReady) {
      firstReady ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5_000);
        client.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await firstReady;
    }
    wasReady ||= client.isReady;
    return client;
  };
  return {
    async ready() {
      await connected();
    },
    async setIfAbsent(key, value, ttlMs) {
      const ttl = Math.max(1, Math.round(ttlMs));
      const entry = await encode(key, value, ttl);
      const client = await connected();
      const answer = await client.set(entry.key, entry.value, {
        condition: 'NX',
        expiration: { type: 'PX', value: ttl },
      });
      return answer === 'OK';
    },
    async deleteIfValue(key, expected) {
      // The expected value as keyv stores it (its serializer prefixes a string that begins with ':').
      const entry = await encode(key, expected);
      const stored = (JSON.parse(entry.value) as { value: unknown }).value;
      if (typeof stored !== 'string') return false;
      const client = await connected();
      const deleted = await deleteIfValueScript.run(client, { keys: [entry.key], arguments: [stored] });
      return deleted === 1;
    },
    async deletePrefix(prefix, containing) {
      const match = globPrefix((await encode(prefix, null)).key);
      const client = await connected();
      let cursor = '0';
      let deleted = 0;
      do {
        const page = await client.scan(cursor, { MATCH: match, COUNT: batch });
        cursor = String(page.cursor);
        const keys = page.keys.filter((key) => keyContains(key, containing));
        if (keys.length > 0) deleted += await client.unlink(keys);
      } while (cursor !== '0');
      return deleted;
    },
  };
}
