import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';

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
   * Whether the tenure of `token` still holds, asked before every run between renewals; no request. The
   * balanced leases answer from the balancer, which drops a lease as soon as the others may take it (its beat
   * ran out): the engine then stops polling at once instead of at its own renewal, a third of the TTL later, when
   * two replicas would poll one key. Absent: the tenure holds until the engine's own renewal.
   */
  holds?(resource: string, token: number): boolean;
  /**
   * Writes a commit only while `token` is still the resource's current token: its chunks, then its pointer (the
   * head or an index), which makes them current; the pointer never lands without every chunk. False when the
   * lease expired or moved on: the caller lost the project and must not write it. A failure throws (what landed
   * is unknown). The in-process lease checks and then writes to `store`, the chunks together and then the
   * pointer (one process: nothing can take the lease in between but an expiry); the Redis lease ignores `store`
   * and compares and writes them all in one script in Redis, where the store reads: one round trip, atomic.
   */
  fencedCommit(resource: string, token: number, commit: FencedCommit, store: KeyValueStore): Promise<boolean>;
}

/** One store write of a commit: a key of the engine's store and its value. */
export interface PlannedWrite {
  readonly key: string;
  readonly value: unknown;
}

/** What {@link Lease.fencedCommit} writes: the changed chunks, then the pointer that makes them current. */
export interface FencedCommit {
  readonly chunks: readonly PlannedWrite[];
  readonly pointer: PlannedWrite;
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
