import { z } from 'zod';
import type { KeyValueStore } from '../lib/store.js';

/**
 * The witness's stored sightings (witness.ts): the message ids seen for a delivery still in doubt (or in the air)
 * when its sighting came, under `delivery/sighted/<key>` for a day, so the replica that decides the doubt sees them.
 */
const storedTtlMs = 24 * 3_600_000;

const storedSchema = z.object({ ids: z.array(z.string()) }) as unknown as z.ZodType<{
  readonly ids: readonly string[];
}>;

export function createSightingsStore(store: KeyValueStore) {
  const storedKey = (key: string) => `delivery/sighted/${encodeURIComponent(key)}`;
  const read = async (key: string) => (await store.get(storedKey(key), storedSchema))?.ids ?? [];
  return {
    /** Sightings of a delivery written by any replica. */
    read,
    /** Adds a message id to the delivery's sightings (nothing when it is there already). */
    async add(key: string, messageId: string): Promise<void> {
      const ids = await read(key);
      if (ids.includes(messageId)) return;
      await store.set(storedKey(key), { ids: [...ids, messageId] }, storedTtlMs);
    },
  };
}
