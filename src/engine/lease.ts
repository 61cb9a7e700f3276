import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';

/** What `acquire` hands out: the fencing token of this tenure (a new holder gets a strictly greater one). */
export interface LeaseGrant {
  readonly token: number;
}

/**
 * Who polls a project, and the fence on its state write. With several replicas exactly one holds a project's
 * lease and polls it; the others leave it alone until the lease expires (the holder died) or is released.
 * Renewal is `acquire` by the current holder. The Redis implementation (src/app/replica-leases.ts, over
 * src/lib/coordination) hands out the tokens of a `LeaseBalancer`, which spreads projects fairly.
 */
export interface Lease {
  /** Acquires or renews `resource` for `holder` until now + ttlMs; null while another holder has it. */
  acquire(resource: string, holder: string, ttlMs: number): Promise<LeaseGrant | null>;
  /** Gives it up if `holder` has it. */
  release(resource: string, holder: string): Promise<void>;
  /**
   * Writes `value` under the engine store's `key` only while `token` is still the resource's current token.
   * False when the lease expired or moved on: the caller lost the project and must not write it. The in-process
   * lease checks and then writes to `store` (one process: nothing can take the lease in between but an expiry);
   * the Redis lease ignores `store` and compares and writes in one script in Redis, where the store reads.
   */
  fencedSet(
    resource: string,
    token: number,
    key: string,
    value: unknown,
    store: KeyValueStore,
  ): Promise<boolean>;
}

/** In-process leases: for one process, and for tests of several replicas sharing one instance. */
export function memoryLease(clock: Clock): Lease {
  const held = new Map<string, { holder: string; token: number; until: number }>();
  let lastToken = 0;
  const live = (resource: string) => {
    const current = held.get(resource);
    return current !== undefined && current.until > clock.now() ? current : undefined;
  };
  return {
    async acquire(resource, holder, ttlMs) {
      const current = live(resource);
      if (current !== undefined && current.holder !== holder) return null;
      const token = current?.token ?? ++lastToken;
      held.set(resource, { holder, token, until: clock.now() + ttlMs });
      return { token };
    },
    async release(resource, holder) {
      if (held.get(resource)?.holder === holder) held.delete(resource);
    },
    async fencedSet(resource, token, key, value, store) {
      if (live(resource)?.token !== token) return false;
      await store.set(key, value);
      return true;
    },
  };
}
