import { DEFAULT_LEASE_TTL_MS, type FencedEntry, type Lease, type LeaseHolder } from './lease.js';
import { RedisScript, type RedisScriptClient } from './redis-script.js';

/**
 * Acquire or renew, in one script so that no other replica can act between the read and the write.
 * KEYS[1] = lease (`<token> <holder>`, PX ttl), KEYS[2] = the resource's last token (no TTL).
 * ARGV[1] = holder, ARGV[2] = ttl ms. Returns the token, or nil while another holder has it.
 *
 * A new token is max(last + 1, Redis' clock in ms): the counter makes tokens strictly increase while Redis
 * lives, and the time base keeps them increasing across a restart that lost the counter (no persistence, or an
 * RDB snapshot older than the last grant): the restarted server's clock is past every token handed out before.
 */
const acquireScript = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if current then
  local space = string.find(current, ' ', 1, true)
  if string.sub(current, space + 1) ~= ARGV[1] then return nil end
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(string.sub(current, 1, space - 1))
end
local time = redis.call('TIME')
local nowMs = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local token = math.max(tonumber(redis.call('GET', KEYS[2]) or '0') + 1, nowMs)
local text = string.format('%.0f', token)
redis.call('SET', KEYS[2], text)
redis.call('SET', KEYS[1], text .. ' ' .. ARGV[1], 'PX', ARGV[2])
return token
`);

/** KEYS[1] = lease; ARGV[1] = holder. Deletes the lease only if that holder has it. */
const releaseScript = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, string.find(current, ' ', 1, true) + 1) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 0
`);

/**
 * KEYS[1] = lease, KEYS[2..n+1] = data keys; ARGV[1] = token, then per data key its value and its ttl ms or ''
 * (ARGV[2i], ARGV[2i+1] for KEYS[i+1]). Compares the lease's current token, then sets them all in order,
 * atomically. Returns 1 when written, 0 when refused.
 */
const fencedSetScript = new RedisScript(`
local current = redis.call('GET', KEYS[1])
if not current or string.sub(current, 1, string.find(current, ' ', 1, true) - 1) ~= ARGV[1] then return 0 end
for i = 2, #KEYS do
  local value, ttl = ARGV[2 * i - 2], ARGV[2 * i - 1]
  if ttl == '' then redis.call('SET', KEYS[i], value) else redis.call('SET', KEYS[i], value, 'PX', ttl) end
end
return 1
`);

/**
 * KEYS = leases; ARGV[1] = holder, ARGV[2] = ttl ms. Extends each lease that holder has; returns per key its
 * token, or false (lost). One script for all of a replica's leases instead of one acquire script each.
 */
const renewAllScript = new RedisScript(`
local tokens = {}
for i, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  tokens[i] = false
  if current then
    local space = string.find(current, ' ', 1, true)
    if string.sub(current, space + 1) == ARGV[1] then
      redis.call('PEXPIRE', key, ARGV[2])
      tokens[i] = string.sub(current, 1, space - 1)
    end
  end
end
return tokens
`);

/** KEYS = leases; ARGV = dead holders. Deletes the leases one of them has; returns per key its holder, or false. */
const revokeScript = new RedisScript(`
local dead = {}
for _, holder in ipairs(ARGV) do dead[holder] = true end
local freed = {}
for i, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  freed[i] = false
  if current then
    local holder = string.sub(current, string.find(current, ' ', 1, true) + 1)
    if dead[holder] then
      redis.call('DEL', key)
      freed[i] = holder
    end
  end
end
return freed
`);

/** KEYS = leases. One round trip for the balancer's view of who holds what (MGET inside a script). */
const holdersScript = new RedisScript(`return redis.call('MGET', unpack(KEYS))`);

/** Leases read (or renewed, or revoked) per script call. */
const HOLDERS_BATCH = 1_000;

/** Runs `each` on `resources` in batches of {@link HOLDERS_BATCH}, one after the other. */
async function inBatches(
  resources: readonly string[],
  each: (batch: string[]) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < resources.length; start += HOLDERS_BATCH) {
    await each(resources.slice(start, start + HOLDERS_BATCH));
  }
}

/** A script's answer as a list, or a clear error. */
function listOf(answer: unknown, what: string): unknown[] {
  if (!Array.isArray(answer)) throw new Error(`${what} answered ${typeof answer}, not a list`);
  return answer;
}

export interface RedisLeaseOptions {
  /** Prefix of the lease keys; default `fundbot:lease:`. */
  readonly prefix?: string;
}

/**
 * Leases on one Redis instance, with Lua scripts through node-redis, the client `@keyv/redis` already uses.
 * Not Redlock: fundbot runs on a single Redis (Redlock's quorum over several masters buys nothing there), a
 * fencing token needs a per-resource counter that Redlock does not provide, and one client means one
 * connection pool fewer.
 *
 * Storage per project: the lease key (~60 B, expires with the TTL) and its token counter (~40 B, kept so tokens
 * never go back while Redis lives). Requests: one script per acquire, one per release, one per fenced group of
 * writes (`fencedSetAll`); `holders`, `renewAll` and `revoke` are one script per 1,000 projects.
 *
 * The data keys of `fencedSetAll` are raw Redis keys: on a Redis Cluster it would need the lease's hash slot, so this
 * is for a single instance (which is what fundbot's `redis://` store is).
 */
export function redisLease(client: RedisScriptClient, options: RedisLeaseOptions = {}): Lease {
  const prefix = options.prefix ?? 'fundbot:lease:';
  // The hash tag keeps a lease and its counter in one slot, should the instance ever become a cluster.
  const leaseKey = (resource: string) => `${prefix}{${resource}}`;
  const counterKey = (resource: string) => `${prefix}{${resource}}:token`;
  const fencedSetAll = async (resource: string, token: number, entries: readonly FencedEntry[]) => {
    const written = await fencedSetScript.run(client, {
      keys: [leaseKey(resource), ...entries.map((e) => e.key)],
      arguments: [
        String(token),
        ...entries.flatMap((e) => [e.value, e.ttlMs === undefined ? '' : ttlText(e.ttlMs)]),
      ],
    });
    return written === 1;
  };
  return {
    async acquire(resource, holder, ttlMs = DEFAULT_LEASE_TTL_MS) {
      const token = await acquireScript.run(client, {
        keys: [leaseKey(resource), counterKey(resource)],
        arguments: [holder, ttlText(ttlMs)],
      });
      return token === null ? null : { token: Number(token) };
    },
    async release(resource, holder) {
      await releaseScript.run(client, { keys: [leaseKey(resource)], arguments: [holder] });
    },
    fencedSetAll,
    async holders(resources) {
      const found = new Map<string, LeaseHolder>();
      // Batches keep `unpack(KEYS)` well inside Lua's stack limit (~8000 values) for any number of projects.
      await inBatches(resources, async (batch) => {
        const answer = await holdersScript.run(client, { keys: batch.map(leaseKey), arguments: [] });
        const values = listOf(answer, 'MGET of leases');
        batch.forEach((resource, index) => {
          const value: unknown = values[index];
          if (typeof value !== 'string') return;
          const space = value.indexOf(' ');
          found.set(resource, { token: Number(value.slice(0, space)), holder: value.slice(space + 1) });
        });
      });
      return found;
    },
    async renewAll(resources, holder, ttlMs = DEFAULT_LEASE_TTL_MS) {
      const renewed = new Map<string, number>();
      await inBatches(resources, async (batch) => {
        const answer = await renewAllScript.run(client, {
          keys: batch.map(leaseKey),
          arguments: [holder, ttlText(ttlMs)],
        });
        const tokens = listOf(answer, 'the lease renewal');
        batch.forEach((resource, index) => {
          const token: unknown = tokens[index];
          if (typeof token === 'string') renewed.set(resource, Number(token));
        });
      });
      return renewed;
    },
    async revoke(holders, resources) {
      const freed = new Map<string, string>();
      if (holders.length === 0) return freed;
      await inBatches(resources, async (batch) => {
        const answer = await revokeScript.run(client, { keys: batch.map(leaseKey), arguments: [...holders] });
        const formerHolders = listOf(answer, 'the lease revocation');
        batch.forEach((resource, index) => {
          const holder: unknown = formerHolders[index];
          if (typeof holder === 'string') freed.set(resource, holder);
        });
      });
      return freed;
    },
  };
}

/** A TTL as Redis' PX takes it: whole milliseconds, at least 1. */
const ttlText = (ttlMs: number) => String(Math.max(1, Math.round(ttlMs)));
