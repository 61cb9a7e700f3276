import { z } from 'zod';
import { type EngineNote, isEngineNote } from '../../domain/engine-notes.js';
import type { KeyValueStore } from '../../lib/store.js';
import { stateKeys } from '../state/project-state.js';

/**
 * The shared project status in the store (status-board.ts writes and reads it): one record per project under
 * `stateKeys.status`, written by the polling replica, read with the state head's poll times by any other.
 */

const noteSchema = z.custom<EngineNote>(isEngineNote);
const nullableNumber = z.number().nullable();
const storedStatusSchema = z.object({
  by: z.string(),
  at: z.number(),
  feeds: z.array(
    z.object({
      feed: z.enum(['project', 'incentives', 'fundings', 'wall', 'blog']),
      last: nullableNumber,
      every: z.number(),
      off: noteSchema.optional(),
    }),
  ),
  budget: z.object({
    dayLimit: nullableNumber,
    dayRemaining: nullableNumber,
    dayResetAt: nullableNumber,
    minuteRemaining: nullableNumber,
  }),
  // A note another version wrote under a code this one does not know is left out, not the whole status.
  notes: z.array(z.object({ at: z.number(), note: z.unknown() })),
  paused: z.object({ reason: noteSchema, since: z.number() }).nullable(),
  project: z
    .object({
      title: z.string(),
      current: z.number(),
      goal: z.number(),
      currency: z.string(),
      readAt: z.number(),
    })
    .optional(),
});
export type StoredStatus = z.infer<typeof storedStatusSchema>;

/** Only the read times of the state head (project-state-layout.ts). */
const headReadAtSchema = z.object({ readAt: z.record(z.string(), z.number()) });

/** Writes the project's shared status. */
export function writeStoredStatus(
  store: KeyValueStore,
  linkCaption: string,
  stored: StoredStatus,
): Promise<void> {
  return store.set(stateKeys.status(linkCaption), stored);
}

/**
 * The status the polling replica last wrote and the state head's read times per feed; undefined when no status
 * was written (or it does not parse). Two reads.
 */
export async function readStoredStatus(
  store: KeyValueStore,
  linkCaption: string,
): Promise<{ stored: StoredStatus; readAt: Readonly<Record<string, number>> } | undefined> {
  const [stored, head] = await Promise.all([
    store.get(stateKeys.status(linkCaption), storedStatusSchema).catch(() => undefined),
    store.get(stateKeys.head(linkCaption), headReadAtSchema).catch(() => undefined),
  ]);
  return stored === undefined ? undefined : { stored, readAt: head?.readAt ?? {} };
}
