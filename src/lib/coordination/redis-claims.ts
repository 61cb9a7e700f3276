import type { Claims } from './claims.js';
import { RedisScript, type RedisScriptClient } from './redis-script.js';

/** KEYS[1] = claim; ARGV[1] = owner, ARGV[2] = ttl ms. `SET NX PX`: 1 for the one winner, 0 for the rest. */
const claimScript = new RedisScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
`);

/** KEYS[1] = claim; ARGV[1] = owner. Deletes only this owner's claim: an expired one may be someone else's now. */
const giveBackScript = new RedisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`);

export interface RedisClaimsOptions {
  /** Prefix of the claim keys; default `fundbot:claim:`. */
  readonly prefix?: string;
}

/**
 * Claims on Redis with `SET key owner NX PX ttl`: atomic in the server, so of any number of concurrent
 * claimers exactly one gets OK. Cost: one request and one key (~50 B + the key, gone after the TTL) per claim.
 * SET NX runs inside a script only to share the EVALSHA path with the leases and get a plain 1/0 back.
 */
export function redisClaims(
  client: RedisScriptClient,
  owner: string,
  options: RedisClaimsOptions = {},
): Claims {
  const prefix = options.prefix ?? 'fundbot:claim:';
  return {
    async claimOnce(key, ttlMs) {
      const won = await claimScript.run(client, {
        keys: [`${prefix}${key}`],
        arguments: [owner, String(Math.max(1, Math.round(ttlMs)))],
      });
      return won === 1;
    },
    async giveBack(key) {
      await giveBackScript.run(client, { keys: [`${prefix}${key}`], arguments: [owner] });
    },
  };
}
