import { z } from 'zod';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import type { KeyValueStore } from '../../lib/store.js';
import { batchKeepMs } from './batch-store.js';

/**
 * The pacing marks beside the batches (batch-store.ts keeps the batches themselves), each kept as long as a batch
 * (`batchKeepMs`):
 * - `pacing/held-member/<project>/<entry>@<channel>`: the batch a held burst's member sits in (batches.ts), so a
 *   drop naming one supporter finds it;
 * - `pacing/corrected/<event>@<channel>`: when a notice was corrected in a channel (corrections.ts), so it is
 *   corrected once;
 * - `pacing/held/<event>@<channel>`: read only, where the paced router before the ledger's held state kept a
 *   held notice's batch.
 */
export function createPacingMarks(store: KeyValueStore) {
  const heldMemberKey = (project: string, entryKey: string, channel: ChannelRef) =>
    `pacing/held-member/${project}/${entryKey}@${channelKey(channel)}`;
  const correctedKey = (id: string, channel: ChannelRef) => `pacing/corrected/${id}@${channelKey(channel)}`;
  const legacyHeldKey = (eventId: string, channel: ChannelRef) =>
    `pacing/held/${eventId}@${channelKey(channel)}`;
  return {
    holdMember: (project: string, entryKey: string, channel: ChannelRef, batchId: string) =>
      store.set(heldMemberKey(project, entryKey, channel), batchId, batchKeepMs),
    heldMemberBatch: (project: string, entryKey: string, channel: ChannelRef) =>
      store.get(heldMemberKey(project, entryKey, channel), z.string()),
    legacyHeldBatch: (eventId: string, channel: ChannelRef) =>
      store.get(legacyHeldKey(eventId, channel), z.string()),
    correctedAt: (eventId: string, channel: ChannelRef) =>
      store.get(correctedKey(eventId, channel), z.number()),
    markCorrected: (eventId: string, channel: ChannelRef, at: number) =>
      store.set(correctedKey(eventId, channel), at, batchKeepMs),
  };
}
