import { RedisScript, type RedisScriptClient } from './redis-script.js';
import type { ReplicaRegistry } from './replica-registry.js';

/**
 * KEYS[1] = the registry (sorted set: replica id scored by the ms its heartbeat expires); ARGV[1] = id,
 * ARGV[2] = ttl ms. Drops expired replicas, records this beat, returns the live ids. Redis' clock, not the
 * replicas', decides expiry, so clock skew between machines does not matter.
 */
const heartbeatScript = new RedisScript(`
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', nowMs))
redis.call('ZADD', KEYS[1], string.format('%.0f', nowMs + tonumber(ARGV[2])), ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
`);

const leaveScript = new RedisScript(`redis.call('ZREM', KEYS[1], ARGV[1]) return 0`);

export interface RedisReplicaRegistryOptions {
  /** Key of the registry; default `fundbot:replicas`. */
  readonly key?: string;
}

/**
 * The live replicas in one sorted set rather than one `replica:<id>` key with a TTL each: listing the live ones
 * is then one O(log N) script per heartbeat instead of a SCAN over a keyspace the store shares. Cost: one
 * request per heartbeat per replica, ~40 B per replica.
 */
export function redisReplicaRegistry(
  client: RedisScriptClient,
  options: RedisReplicaRegistryOptions = {},
): ReplicaRegistry {
  const key = options.key ?? 'fundbot:replicas';
  return {
    async heartbeat(id, ttlMs) {
      const live = await heartbeatScript.run(client, {
        keys: [key],
        arguments: [id, String(Math.max(1, Math.round(ttlMs)))],
      });
      if (!Array.isArray(live)) throw new Error(`the replica registry answered ${typeof live}, not a list`);
      return live.map(String).sort();
    },
    async leave(id) {
      await leaveScript.run(client, { keys: [key], arguments: [id] });
    },
  };
}
