import type { Clock } from '../lib/clock.js';

/**
 * Who polls a project. With several replicas, exactly one holds a project's
 * lease and polls it; the others leave it alone until the lease expires (the
 * holder died) or is released. Renewal is `acquire` by the current holder.
 * A Redis implementation (SET NX PX + a compare-and-set script) fits this seam.
 */
export interface Lease {
  /** Acquires or renews `resource` for `holder` until now + ttlMs; false when another holder has it. */
  acquire(resource: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives it up if `holder` has it. */
  release(resource: string, holder: string): Promise<void>;
}

/** In-process leases: for one process, and for tests of several replicas sharing one instance. */
export function memoryLease(clock: Clock): Lease {
  const held = new Map<string, { holder: string; until: number }>();
  return {
    async acquire(resource, holder, ttlMs) {
      const now = clock.now();
      const current = held.get(resource);
      if (current !== undefined && current.holder !== holder && current.until > now) return false;
      held.set(resource, { holder, until: now + ttlMs });
      return true;
    },
    async release(resource, holder) {
      if (held.get(resource)?.holder === holder) held.delete(resource);
    },
  };
}
