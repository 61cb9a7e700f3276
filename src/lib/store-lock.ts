import { randomUUID } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import type { KeyValueStore } from './store-port.js';

export interface StoreLockOptions {
  /** A holder killed mid-change frees the lock after this (default 5 s); a change must finish well inside it. */
  readonly ttlMs?: number;
  /** How long a caller waits for another holder before it gives up (default 5 s). */
  readonly waitMs?: number;
}

/** Between two tries for a held lock. */
const retryEveryMs = 20;

/**
 * Runs `change` while this caller alone, across replicas, holds `lockKey`: one atomic set-if-absent in the store
 * (Redis `SET NX PX`, SQLite a conditional insert), so a read-modify-write of a shared key (a list) never loses
 * another replica's change. Released by one atomic compare-and-delete of its owner token
 * ({@link KeyValueStore.deleteIfValue}): a holder whose lock expired during a slow change cannot delete the lock
 * the next holder took meanwhile (a read, then a delete, could). Cost: one set-if-absent (more while another
 * holder works) and one conditional delete.
 */
export async function withStoreLock<T>(
  store: KeyValueStore,
  lockKey: string,
  change: () => Promise<T>,
  options: StoreLockOptions = {},
): Promise<T> {
  const owner = randomUUID();
  const ttlMs = options.ttlMs ?? 5_000;
  // Waits for another holder's store operations, which take real time: on the process's timers, not the
  // injected clock (a test's virtual clock would never let the holder's I/O finish the wait).
  const giveUpAt = performance.now() + (options.waitMs ?? 5_000);
  while (!(await store.setIfAbsent(lockKey, owner, ttlMs))) {
    if (performance.now() >= giveUpAt) {
      throw new Error(
        `${lockKey} stayed locked by another replica for ${options.waitMs ?? 5_000} ms: try again`,
      );
    }
    await wait(retryEveryMs);
  }
  try {
    return await change();
  } finally {
    // Only our own lock: one that expired meanwhile may be another holder's now. A failed release is
    // left to the lock's expiry.
    await store.deleteIfValue(lockKey, owner).catch(() => false);
  }
}
