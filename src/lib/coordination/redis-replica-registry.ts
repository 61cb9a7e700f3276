import { RedisScript, type RedisScriptClient } from './redis-script.js';
import type { FleetView, ReplicaRegistry } from './replica-registry.js';

/** Redis' own clock in ms, in a script: expiry never depends on the replicas' clocks. */
const redisNowMs = `
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * KEYS[1] = the registry (sorted set: replica id scored by the ms its beat expires), KEYS[2] = the watched
 * replicas (set); ARGV[1] = id, ARGV[2] = ttl ms, ARGV[3] = '1' when its connection is watched. Records this
 * beat and returns { live ids, expired ids, watched live ids, 1 if the id was listed before }. Expired replicas
 * stay until buried: the replica that buries one also breaks its leases.
 */
const heartbeatScript = new RedisScript(`${redisNowMs}
local listed = redis.call('ZSCORE', KEYS[1], ARGV[1]) and 1 or 0
redis.call('ZADD', KEYS[1], string.format('%.0f', nowMs + tonumber(ARGV[2])), ARGV[1])
if ARGV[3] == '1' then redis.call('SADD', KEYS[2], ARGV[1]) else redis.call('SREM', KEYS[2], ARGV[1]) end
local live = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. string.format('%.0f', nowMs), '+inf')
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', nowMs))
local watched = {}
for _, id in ipairs(live) do
  if redis.call('SISMEMBER', KEYS[2], id) == 1 then table.insert(watched, id) end
end
return { live, expired, watched, listed }
`);

/** KEYS[1] = registry, KEYS[2] = watched; ARGV = ids. Removes those still expired; returns them. */
const buryExpiredScript = new RedisScript(`${redisNowMs}
local buried = {}
for _, id in ipairs(ARGV) do
  local score = redis.call('ZSCORE', KEYS[1], id)
  if score and tonumber(score) <= nowMs then
    redis.call('ZREM', KEYS[1], id)
    redis.call('SREM', KEYS[2], id)
    table.insert(buried, id)
  end
end
return buried
`);

const leaveScript = new RedisScript(
  `redis.call('ZREM', KEYS[1], ARGV[1]) redis.call('SREM', KEYS[2], ARGV[1]) return 0`,
);

export interface RedisReplicaRegistryOptions {
  /** Key of the registry; default `fundbot:replicas` (the watched ones: the same with `:watched`). */
  readonly key?: string;
}

/**
 * The live replicas in one sorted set rather than one `replica:<id>` key with a TTL each: listing the live ones
 * is then one O(log N) script per heartbeat instead of a SCAN over a keyspace the store shares. Cost: one
 * script per heartbeat per replica (O(N) in the fleet's size), ~40 B per replica and ~40 B per watched one.
 * The beats are scored as before (the ms they expire), so replicas of an older fundbot share the registry.
 */
export function redisReplicaRegistry(
  client: RedisScriptClient,
  options: RedisReplicaRegistryOptions = {},
): ReplicaRegistry {
  const key = options.key ?? 'fundbot:replicas';
  const keys = [key, `${key}:watched`];
  const ids = (value: unknown) => (Array.isArray(value) ? value.map(String).sort() : []);
  return {
    async heartbeat(id, ttlMs, beat = {}): Promise<FleetView> {
      const answer = await heartbeatScript.run(client, {
        keys,
        arguments: [id, String(Math.max(1, Math.round(ttlMs))), beat.watched === true ? '1' : '0'],
      });
      if (!Array.isArray(answer) || answer.length !== 4) {
        throw new Error(`the replica registry answered ${typeof answer}, not the fleet`);
      }
      const [live, expired, watched, listed] = answer as unknown[];
      return {
        live: ids(live),
        expired: ids(expired),
        watched: ids(watched),
        wasListed: Number(listed) === 1,
      };
    },
    async leave(id) {
      await leaveScript.run(client, { keys, arguments: [id] });
    },
    async buryExpired(expired) {
      if (expired.length === 0) return [];
      return ids(await buryExpiredScript.run(client, { keys, arguments: [...expired] }));
    },
  };
}
