import type { ChannelRef } from '../../domain/channels.js';
import type { DeliveryKey, DeliveryLedger, DeliveryRecord } from '../delivery-ledger.js';
import type { BatchRecord } from './batch-record.js';

/**
 * A notice held for a catch-up whose earlier attempt lands after all. It was attempted, decided absent (a look,
 * or the platform's events staying silent past where it would have landed), its repeat was refused because the
 * bot lost the channel, and it was held; then the first attempt's message shows up in the channel. The name must
 * stand once: the message that stands already counts, and the catch-up leaves the name out, or, when the
 * catch-up named it first, the late message is removed as an extra copy.
 *
 * - sighted while the catch-up still holds it: the ledger records it posted under the sighted message;
 * - before the catch-up goes out (`withoutLanded`): entries whose ledger says posted are left out;
 * - after the catch-up went out (`removeLandedCopies`): an entry recorded posted meanwhile had its own copy
 *   beside the catch-up's: that copy is removed, and the ledger goes back to the batch;
 * - sighted after the catch-up went out: the late message is removed.
 *
 * Cost: one ledger read per entry of a catch-up (a catch-up only: paced batches hold notices never attempted),
 * before and after it is posted; nothing for a notice that never lands late.
 */
export interface LandedAfterAllDeps {
  readonly ledger: DeliveryLedger;
  /** Removes `copy` of delivery `id`, the ledger's message (`canonical`) staying (the channel lane's watch). */
  readonly removeCopy: (channel: ChannelRef, id: string, canonical: string, copy: string) => void;
}

const isCatchUp = (batch: BatchRecord) => batch.reason === 'no-access';

async function landedEntries(ledger: DeliveryLedger, batch: BatchRecord) {
  const records = await Promise.all(
    batch.entries.map((e) => ledger.get({ id: e.eventId, channel: batch.channel }).catch(() => undefined)),
  );
  return batch.entries.flatMap((entry, i) => {
    const record = records[i];
    return record?.state === 'posted' ? [{ entry, messageId: record.messageId }] : [];
  });
}

/** The catch-up without the notices that stand in the channel already. */
export async function withoutLanded(ledger: DeliveryLedger, batch: BatchRecord): Promise<BatchRecord> {
  if (!isCatchUp(batch)) return batch;
  const landed = new Set((await landedEntries(ledger, batch)).map((l) => l.entry));
  if (landed.size === 0) return batch;
  return { ...batch, entries: batch.entries.filter((e) => !landed.has(e)) };
}

/** A catch-up is posted (as `batchMessageId`): notices that landed meanwhile had a copy of their own; it goes. */
export async function removeLandedCopies(
  deps: LandedAfterAllDeps,
  batch: BatchRecord,
  batchMessageId: string | undefined,
): Promise<void> {
  if (!isCatchUp(batch) || batchMessageId === undefined) return;
  for (const { entry, messageId } of await landedEntries(deps.ledger, batch)) {
    const key = { id: entry.eventId, channel: batch.channel };
    await deps.ledger.hold(key, batch.id);
    if (messageId !== undefined) deps.removeCopy(batch.channel, entry.eventId, batchMessageId, messageId);
  }
}

/** The message of a notice the ledger says is held (in `record.batchId`) was seen in the channel. */
export async function heldNoticeSighted(
  deps: LandedAfterAllDeps & { readonly batch: (id: string) => Promise<BatchRecord | undefined> },
  key: DeliveryKey,
  record: DeliveryRecord,
  messageId: string,
): Promise<void> {
  const batch = record.batchId === undefined ? undefined : await deps.batch(record.batchId);
  if (batch?.state === 'posted') {
    const posted = await deps.ledger.get({ id: batch.id, channel: key.channel });
    if (posted?.messageId !== undefined) deps.removeCopy(key.channel, key.id, posted.messageId, messageId);
    return;
  }
  await deps.ledger.confirm(key, messageId);
}
