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
