import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';

/**
 * One User-key reader per fleet (issue 30): three replicas each reading `/user/me/projects` spent the key's
 * day three times too fast (9 reads a minute where the day allowed 3.1) and each re-planned from the shared
 * rate headers. Now only the replica holding the reader lease reads; it writes each read here, and the
 * others take the counts from here at the reader's pace.
 *
 * Key (engine store): `user-signal/read`, about 40 bytes per own project of the key's owner.
 */
export const userSignalReadKey = 'user-signal/read';

/** What the reader shares of one read. */
export interface SharedUserRead {
  /** Epoch ms of the read. */
  readonly at: number;
  /** Epoch ms the reader plans its next read for: the followers look a moment after it. */
  readonly nextAt: number;
  /** Per own project (link caption in lower case): supporter count and current funding. */
  readonly counts: Readonly<Record<string, readonly [number, number]>>;
}

const sharedReadSchema = z.object({
  at: z.number(),
  nextAt: z.number(),
  counts: z.record(z.string(), z.tuple([z.number(), z.number()])),
});

/** What a signal on replicas is given: whether it reads now (the lease), and where reads are shared. */
export interface UserSignalShare {
  /** True while this replica holds the reader lease. */
  reads(): boolean;
  readonly store: KeyValueStore;
}

export function publishUserRead(store: KeyValueStore, read: SharedUserRead): Promise<void> {
  return store.set(userSignalReadKey, read);
}

/** The last read the reader shared; undefined when none (or the store does not answer). */
export function latestUserRead(store: KeyValueStore): Promise<SharedUserRead | undefined> {
  return store.get(userSignalReadKey, sharedReadSchema).catch(() => undefined);
}
