import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { KeyValueStore } from '../store.js';

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

const claimSchema = z.object({ owner: z.string(), until: z.number() });

/** The operations in progress per store and key: every {@link storeClaims} on one store takes turns. */
const claimsInFlight = new WeakMap<KeyValueStore, Map<string, Promise<unknown>>>();

/**
 * Claims kept in the store itself, for one process on SQLite: they outlive a restart (an
 * in-memory claim would be forgotten by it), and claims on the same key are taken one after
 * the other inside the process, so the read-then-write is atomic here. Not for replicas: two
 * processes sharing a store need {@link redisClaims}. Cost: one read and, for the winner, one
 * write of about 60 bytes per claim, gone after the TTL.
 */
export function storeClaims(store: KeyValueStore, clock: Clock, owner: string): Claims {
  const inFlight = claimsInFlight.get(store) ?? new Map<string, Promise<unknown>>();
  claimsInFlight.set(store, inFlight);
  /** Runs `work` after every earlier operation on `key` in this process. */
  const serially = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = inFlight.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    inFlight.set(key, settled);
    void settled.then(() => {
      if (inFlight.get(key) === settled) inFlight.delete(key);
    });
    return next;
  };
  return {
    claimOnce: (key, ttlMs) =>
      serially(key, async () => {
        const current = await store.get(key, claimSchema);
        if (current !== undefined && current.until > clock.now()) return false;
        await store.set(key, { owner, until: clock.now() + ttlMs }, ttlMs);
        return true;
      }),
    giveBack: (key) =>
      serially(key, async () => {
        if ((await store.get(key, claimSchema))?.owner === owner) await store.delete(key);
      }),
  };
}
