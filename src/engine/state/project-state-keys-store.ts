import { z } from 'zod';
import type { KeyValueStore } from '../../lib/store.js';
import { stateKeys } from './project-state.js';

/**
 * The project state's store calls that go by its keys alone, outside a cycle's load and commit
 * (project-state-store.ts): a glance at the stored head from a replica that does not poll the project, and the
 * removal of everything stored for a project no longer watched. Keys: {@link stateKeys} (project-state.ts).
 */

/** Only what tells whether the stored head has a fundings cursor. */
const headFundingsSchema = z.object({ lists: z.object({ fundings: z.unknown().optional() }) });

/** Whether the store holds the project's fundings baseline (one small read: its state head). */
export async function baselineStored(store: KeyValueStore, linkCaption: string): Promise<boolean> {
  const head = await store.get(stateKeys.head(linkCaption), headFundingsSchema).catch(() => undefined);
  return head?.lists.fundings !== undefined;
}

/** Deletes every key of the project's stored state (head, chunks, history); the keys removed. */
export function forgetProjectState(store: KeyValueStore, linkCaption: string): Promise<number> {
  return store.deletePrefix(stateKeys.prefix(linkCaption));
}
