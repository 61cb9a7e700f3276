import type { Clock } from '../clock.js';

/**
 * Once-only claims across replicas: before posting a notice, a replica claims its (event, channel) key; before
 * sending a digest, its (project, channel, day) key. Whoever wins posts; the others skip. The claim expires so
 * that a replica dying between claim and post costs one retry later, not a lost notice forever.
 */
export interface Claims {
  /** True for exactly one caller among all replicas until the claim expires or its owner gives it back. */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Gives the claim back if this owner still has it (the post failed: let a retry, here or elsewhere, claim it). */
  giveBack(key: string): Promise<void>;
}

/**
 * In-process claims for one process and for tests. The single-process SQLite mode needs no more than this
 * (or nothing at all): one process has one outbox writer, and the store's own delivery records and the digest's
 * "sending" marker already say what was done, so no second writer exists to race.
 */
export function memoryClaims(
  clock: Clock,
  owner: string,
  shared: Map<string, ClaimEntry> = new Map(),
): Claims {
  return {
    async claimOnce(key, ttlMs) {
      const current = shared.get(key);
      if (current !== undefined && current.until > clock.now()) return false;
      shared.set(key, { owner, until: clock.now() + ttlMs });
      return true;
    },
    async giveBack(key) {
      if (shared.get(key)?.owner === owner) shared.delete(key);
    },
  };
}

/** One claim in a {@link memoryClaims} table; pass one table to several owners to model several replicas. */
export interface ClaimEntry {
  readonly owner: string;
  readonly until: number;
}
