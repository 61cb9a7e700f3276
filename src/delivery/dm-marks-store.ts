import { z } from 'zod';
import type { ChannelRef } from '../domain/channels.js';
import { heldNoticeMs } from '../domain/held-notices.js';
import type { KeyValueStore } from '../lib/store.js';

/** Who a direct message goes to: the member and their server/workspace. */
export interface DmRecipient {
  readonly workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>;
  readonly userId: string;
}

/**
 * The reward watch's direct-message marks in the deliveries' store (reward-watch-dms.ts): per restock event and
 * member, the claim `dm-claim/<event id>/<who>` (set-if-absent, held `claimTtlMs`) and the done mark
 * `dm/<event id>/<who>` ('sent' or 'refused', kept as long as delivery records).
 */
export function createDmMarks(store: KeyValueStore, claimTtlMs: number) {
  const who = ({ workspace, userId }: DmRecipient) =>
    `${encodeURIComponent(workspace.platform)}:${encodeURIComponent(workspace.workspaceId)}:${encodeURIComponent(userId)}`;
  const markKey = (eventId: string, to: DmRecipient) => `dm/${encodeURIComponent(eventId)}/${who(to)}`;
  const claimKey = (eventId: string, to: DmRecipient) => `dm-claim/${encodeURIComponent(eventId)}/${who(to)}`;
  return {
    /** Whether the message was sent (or refused) before. */
    done: async (eventId: string, to: DmRecipient): Promise<boolean> =>
      (await store.get(markKey(eventId, to), z.string())) !== undefined,
    /** Claims the message for this replica; false while another holds it. */
    claim: (eventId: string, to: DmRecipient): Promise<boolean> =>
      store.setIfAbsent(claimKey(eventId, to), 'claimed', claimTtlMs),
    /** Gives the claim back after a passing failure, so the next run may try again. */
    giveBack: (eventId: string, to: DmRecipient): Promise<boolean> => store.delete(claimKey(eventId, to)),
    markDone: (eventId: string, to: DmRecipient, outcome: 'sent' | 'refused'): Promise<void> =>
      store.set(markKey(eventId, to), outcome, heldNoticeMs),
  };
}
