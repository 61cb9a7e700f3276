import type { Clock } from '../clock.js';

/** Leases live 30 s unless told otherwise; holders renew every TTL/3, so two missed renewals are survivable. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/** What `acquire` hands out: the fencing token of this tenure. */
export interface LeaseGrant {
  /**
   * Stays the same while the same holder renews; a new holder gets a strictly greater one. Writes made on the
   * lease's behalf carry it ({@link Lease.fencedSetAll}), so a holder that paused past its TTL cannot overwrite the
   * work of its successor.
   */
  readonly token: number;
}

/** Who holds a resource now, as {@link Lease.holders} reports it. */
export interface LeaseHolder {
  readonly holder: string;
  readonly token: number;
}

/** One value of a {@link Lease.fencedSetAll}. */
export interface FencedEntry {
  readonly key: string;
  readonly value: string;
  readonly ttlMs?: number;
}

/** Where a memory lease's fenced writes land (a {@link KeyValueStore} fits). */
export interface FencedWriteTarget {
  set(key: string, value: string, ttlMs?: number): Promise<void>;
}

/**
 * A lease with fencing tokens: exactly one holder per resource (one per project: the replica that polls it).
 *
 * The engine keeps calling `acquire` every TTL/3 (renewal is an acquire by the current holder) and makes its
 * commit conditional on the token: `fencedSetAll` writes only while the token is still the resource's current one.
 */
export interface Lease {
  /** Acquires or renews `resource` for `holder` until now + ttlMs; null while another holder has it. */
  acquire(resource: string, holder: string, ttlMs?: number): Promise<LeaseGrant | null>;
  /** Gives it up if `holder` has it (a successor need not wait for the TTL). */
  release(resource: string, holder: string): Promise<void>;
  /**
   * Writes `entries`, in their order, only if `token` is the current token of a live lease on `resource`,
   * atomically (no write can slip between the check and the sets): all of them or none land. False when the
   * lease expired or moved on: the caller has lost the resource and must stop working on it. One script (one
   * round trip) in Redis: a commit of its chunks and then its head costs one round trip.
   */
  fencedSetAll(resource: string, token: number, entries: readonly FencedEntry[]): Promise<boolean>;
  /** The live holders among `resources` (absent: free). One round trip per 1,000 resources in Redis. */
  holders(resources: readonly string[]): Promise<Map<string, LeaseHolder>>;
  /**
   * Renews every one of `resources` that `holder` still has, until now + ttlMs, and returns their tokens; one
   * absent from the answer was lost (expired, or another holder has it). Not an acquire: a free one stays free.
   * One script per 1,000 resources in Redis, where renewing each with `acquire` cost one script per resource.
   */
  renewAll(resources: readonly string[], holder: string, ttlMs?: number): Promise<Map<string, number>>;
  /**
   * Breaks the leases among `resources` that one of `holders` has (they are dead: see lease-balancer.ts), so
   * others can acquire them at once with greater tokens; a commit with the old token is refused from then on.
   * Returns the resources freed, each with the holder it was taken from. One script per 1,000 resources in Redis.
   */
  revoke(holders: readonly string[], resources: readonly string[]): Promise<Map<string, string>>;
}

/**
 * In-process leases: for the single-process mode and for tests of several replicas sharing one instance.
 * Check and write run in one synchronous step, which is atomic in one JavaScript thread.
 */
export function memoryLease(clock: Clock, target?: FencedWriteTarget): Lease {
  const held = new Map<string, LeaseHolder & { until: number }>();
  const lastToken = new Map<string, number>();
  const live = (resource: string) => {
    const current = held.get(resource);
    if (current === undefined || current.until <= clock.now()) return undefined;
    return current;
  };
  const fencedSetAll = async (resource: string, token: number, entries: readonly FencedEntry[]) => {
    if (live(resource)?.token !== token) return false;
    // Without a target the lease only answers whether the write would be allowed (tests of the policy).
    for (const entry of entries) await target?.set(entry.key, entry.value, entry.ttlMs);
    return true;
  };
  return {
    async acquire(resource, holder, ttlMs = DEFAULT_LEASE_TTL_MS) {
      const current = live(resource);
      if (current !== undefined && current.holder !== holder) return null;
      const token = current?.token ?? (lastToken.get(resource) ?? 0) + 1;
      lastToken.set(resource, token);
      held.set(resource, { holder, token, until: clock.now() + ttlMs });
      return { token };
    },
    async release(resource, holder) {
      if (held.get(resource)?.holder === holder) held.delete(resource);
    },
    fencedSetAll,
    async holders(resources) {
      const found = new Map<string, LeaseHolder>();
      for (const resource of resources) {
        const current = live(resource);
        if (current !== undefined) found.set(resource, { holder: current.holder, token: current.token });
      }
      return found;
    },
    async renewAll(resources, holder, ttlMs = DEFAULT_LEASE_TTL_MS) {
      const renewed = new Map<string, number>();
      for (const resource of resources) {
        const current = live(resource);
        if (current?.holder !== holder) continue;
        current.until = clock.now() + ttlMs;
        renewed.set(resource, current.token);
      }
      return renewed;
    },
    async revoke(holders, resources) {
      const dead = new Set(holders);
      const freed = new Map<string, string>();
      for (const resource of resources) {
        const holder = live(resource)?.holder;
        if (holder === undefined || !dead.has(holder)) continue;
        held.delete(resource);
        freed.set(resource, holder);
      }
      return freed;
    },
  };
}
