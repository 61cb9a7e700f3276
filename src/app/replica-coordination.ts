import type { Lease as EngineLease } from '../engine/index.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import { keyvRedisEncoder } from '../lib/coordination/keyv-redis-entry.js';
import type { Lease } from '../lib/coordination/lease.js';
import { type BalanceReport, LeaseBalancer } from '../lib/coordination/lease-balancer.js';
import { redisClaims } from '../lib/coordination/redis-claims.js';
import { connectRedis, type RedisClient } from '../lib/coordination/redis-client.js';
import { redisConnectionWatch } from '../lib/coordination/redis-connection-watch.js';
import { redisLease } from '../lib/coordination/redis-lease.js';
import { redisReplicaRegistry } from '../lib/coordination/redis-replica-registry.js';
import { redisKeyv } from '../lib/redis-keyv.js';
import { type KeyValueStore, keyvStore, type StoreOutcome } from '../lib/store.js';

/** The engine's store is `namespaced(store, 'engine/')` (wire-fundbot): fenced writes must land on the same keys. */
export const ENGINE_STORE_PREFIX = 'engine/';

/**
 * The engine's lease port on a {@link LeaseBalancer}: the balancer (not the engine) acquires, renews and
 * releases, so projects spread fairly; the engine only asks whether it holds a project (no Redis request) and
 * commits through the Redis lease's `fencedSetAll`, one script that compares the token and writes the commit's
 * chunks and pointer where the keyv store reads them (one round trip a commit, where a script per chunk and
 * then one for the pointer took two).
 */
export function balancedEngineLease(
  balancer: Pick<LeaseBalancer, 'tokenOf'>,
  lease: Lease,
  encode: (key: string, value: unknown) => Promise<{ key: string; value: string }>,
  observe?: { readonly clock: Clock; readonly onOutcome: (outcome: StoreOutcome) => void },
): EngineLease {
  return {
    async acquire(resource) {
      // Asked at every run of every configured project: one map lookup, not a copy of every lease held.
      const token = balancer.tokenOf(resource);
      return token === undefined ? null : { token };
    },
    // The balancer gives leases back when it stops; the engine's stop must not release them under it.
    async release() {},
    // Before every run: a lease the others may take now (this replica's beat ran out) stops its polls at once.
    holds: (resource, token) => balancer.tokenOf(resource) === token,
    async fencedCommit(resource, token, { chunks, pointer }) {
      // The chunks first and the pointer last, in one script: they land together or not at all.
      const entries = await Promise.all(
        [...chunks, pointer].map((w) => encode(`${ENGINE_STORE_PREFIX}${w.key}`, w.value)),
      );
      const startedAt = observe?.clock.now() ?? 0;
      // The state write is the store's busiest write: health must see it fail as it saw the plain set fail.
      try {
        const written = await lease.fencedSetAll(resource, token, entries);
        observe?.onOutcome({ operation: 'set', ok: true, durationMs: observe.clock.now() - startedAt });
        return written;
      } catch (error) {
        observe?.onOutcome({
          operation: 'set',
          ok: false,
          durationMs: observe.clock.now() - startedAt,
          error,
        });
        throw error;
      }
    },
  };
}

/** Lease counts since start, for `/metrics`. */
export interface LeaseCounts {
  acquired: number;
  released: number;
  /** Projects taken from this replica by another (it paused, or Redis restarted): failovers. */
  lost: number;
}

/** Everything a replica on a `redis://` store shares with the others. */
export interface ReplicaCoordination {
  readonly replicaId: string;
  readonly ttlMs: number;
  /** The keyv store on the same connection as the leases. */
  readonly store: KeyValueStore;
  readonly engineLease: EngineLease;
  /**
   * Leases for one-per-fleet jobs (the Discord gateway session), on a key space of their own
   * (`fundbot:singleton:`) so no project slug can collide with them.
   */
  readonly singletons: Lease;
  readonly claims: Claims;
  readonly balancer: LeaseBalancer;
  readonly counts: LeaseCounts;
  /** Projects this replica holds now, sorted. */
  held(): string[];
  /** Runs the balancer until {@link ReplicaCoordination.stop}. */
  start(onTick?: (report: BalanceReport) => void): void;
  /** Gives every lease back (the others take over at once) and leaves the replica registry. */
  stop(): Promise<void>;
  /** Closes the connection (after {@link ReplicaCoordination.stop}). */
  close(): Promise<void>;
}

export interface ReplicaCoordinationOptions {
  readonly url: string;
  readonly replicaId: string;
  readonly clock: Clock;
  readonly projects: () => readonly string[];
  readonly ttlMs: number;
  readonly onError: (error: unknown) => void;
  /**
   * Told when the closed-connection watch starts or stops working (a proxy, CLIENT disabled: killed replicas are
   * then found by their beat alone), and why.
   */
  readonly onConnectionWatch?: (watched: boolean, reason: string) => void;
  /** Told the outcome of every fenced state write (the store watch behind `/healthz`). */
  readonly onStoreOutcome?: (outcome: StoreOutcome) => void;
}

/**
 * Connects one node-redis client and builds on it the store, the project leases (fair share through the
 * balancer), the once-only claims, the replica registry and the closed-connection watch: one connection per
 * replica, named `fundbot:<replica id>`. Cost per replica: a heartbeat script and a CLIENT LIST a second; per
 * TTL/3 one renewal script and one `holders` script (per 1,000 projects); one acquire per wanted project; one
 * script per commit.
 */
export async function connectReplicaCoordination(
  options: ReplicaCoordinationOptions,
): Promise<ReplicaCoordination> {
  const client: RedisClient = await connectRedis(options.url, options.onError, undefined, {
    disableOfflineQueue: true,
    connectWithinMs: 5_000,
  });
  const keyv = redisKeyv(client);
  const lease = redisLease(client);
  const balancer = new LeaseBalancer({
    self: options.replicaId,
    lease,
    registry: redisReplicaRegistry(client),
    clock: options.clock,
    projects: options.projects,
    ttlMs: options.ttlMs,
    // A killed replica's connection closes at once: the others take its projects within seconds.
    connections: redisConnectionWatch({
      client,
      self: options.replicaId,
      clock: options.clock,
      ...(options.onConnectionWatch ? { onChange: options.onConnectionWatch } : {}),
    }),
    onError: options.onError,
  });
  const encode = keyvRedisEncoder(keyv, options.clock);
  const counts: LeaseCounts = { acquired: 0, released: 0, lost: 0 };
  const running = new AbortController();
  let loop: Promise<void> | undefined;
  const store = keyvStore(keyv);
  return {
    replicaId: options.replicaId,
    ttlMs: options.ttlMs,
    // Closing the store closes the shared client; the balancer has stopped by then (shutdown order).
    store,
    engineLease: balancedEngineLease(
      balancer,
      lease,
      (key, value) => encode(key, value),
      options.onStoreOutcome ? { clock: options.clock, onOutcome: options.onStoreOutcome } : undefined,
    ),
    singletons: redisLease(client, { prefix: 'fundbot:singleton:' }),
    claims: redisClaims(client, options.replicaId),
    balancer,
    counts,
    held: () => [...balancer.held().keys()].sort(),
    start(onTick) {
      loop ??= balancer.run(running.signal, (report) => {
        counts.acquired += report.acquired.length;
        counts.released += report.released.length;
        counts.lost += report.lost.length;
        onTick?.(report);
      });
    },
    async stop() {
      running.abort();
      if (loop !== undefined) await loop.catch(options.onError);
      else await balancer.stop().catch(options.onError);
    },
    close: () => store.close(),
  };
}
