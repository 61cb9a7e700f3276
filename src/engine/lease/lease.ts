import type { Clock } from '../../lib/clock.js';
import type { Lease } from '../context/lease-port.js';

export type { FencedCommit, Lease, LeaseGrant, PlannedWrite } from '../context/lease-port.js';

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
    async fencedCommit(resource, token, { chunks, pointer }, store) {
      if (live(resource)?.token !== token) return false;
      // Settled, not raced: a chunk write still in flight after a failure could land later in a slot
      // the next commit (which plans against the same stored pointer) writes again.
      const results = await Promise.allSettled(chunks.map((w) => store.set(w.key, w.value)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      if (live(resource)?.token !== token) return false;
      await store.set(pointer.key, pointer.value);
      return true;
    },
  };
}
