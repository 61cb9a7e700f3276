import type { ChannelRef } from '../domain/channels.js';
import type { CorrectionEvent, FundbotEvent } from '../domain/events.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import { type BatchRecord, batchEvent, withoutOne } from './pacing/batch-record.js';
import type { BatchStore } from './pacing/batch-store.js';
import type { Batches } from './pacing/batches.js';
import type { DailyThreads } from './pacing/daily-thread.js';
import { createPacingMarks } from './pacing/pacing-marks-store.js';
import type { ChannelPoster } from './ports.js';

export interface CorrectionsDeps {
  readonly store: KeyValueStore;
  readonly ledger: DeliveryLedger;
  readonly batchStore: BatchStore;
  readonly batches: Batches;
  readonly threads: DailyThreads;
  /** A notice as the channel reads it (its language and clock). */
  readonly render: (channel: ChannelRef, event: FundbotEvent) => Promise<NeutralMessage>;
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  readonly clock: Clock;
  /** Told every correction made: an edit of a posted message, or a name taken out of a held batch. */
  readonly onCorrected?: (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => void;
}

/** Thrown while the notice to correct is still in doubt: the correction waits for it. */
export class OriginalInDoubtError extends Error {
  override readonly name = 'OriginalInDoubtError';
}

/**
 * Turns a drop (a failed payment, a deleted post) into an edit of what announced it:
 * the posted notice struck through with a reason, or the name taken out of the batch
 * that holds it (and, when that batch was posted, its message edited). Runs in the
 * channel's lane, after the notice it corrects. A mark per (notice, channel) makes a
 * repeated correction a no-op (a posted batch lists a withdrawn name once).
 *
 * Cost: one ledger read; an edit; for a batch one read and one write; the mark (~40 B).
 */
export function createCorrections(deps: CorrectionsDeps) {
  const { store, ledger, clock } = deps;
  const marks = createPacingMarks(store);

  async function heldBatch(event: CorrectionEvent, channel: ChannelRef, batchId: string | undefined) {
    const id =
      batchId ??
      (await marks.legacyHeldBatch(event.originalEventId, channel)) ??
      (event.type === 'support-dropped'
        ? await deps.batches.heldMemberBatch(event.project, event.entryKey, channel)
        : undefined);
    return id === undefined ? undefined : deps.batchStore.get(id);
  }

  return {
    /** Corrects the notice in one channel (throws {@link OriginalInDoubtError} while it is in doubt). */
    async correctIn(channel: ChannelRef, event: CorrectionEvent): Promise<void> {
      if ((await marks.correctedAt(event.originalEventId, channel)) !== undefined) return;
      const poster = deps.posterFor(channel.platform);
      const record = await ledger.get({ id: event.originalEventId, channel });
      if (record?.state === 'attempting')
        throw new OriginalInDoubtError('the notice to correct is still in doubt');
      if (record?.state === 'posted' && record.messageId) {
        if (!poster?.edit) return;
        await poster.edit(channel, record.messageId, await deps.render(channel, event));
        if (event.type === 'support-dropped') await deps.threads.withdraw(event, channel, []);
        await marks.markCorrected(event.originalEventId, channel, clock.now());
        deps.onCorrected?.(event, channel, 'edited');
        return;
      }
      const batch = await heldBatch(event, channel, record?.state === 'held' ? record.batchId : undefined);
      const entry =
        batch?.entries.find((e) => e.eventId === event.originalEventId) ??
        (event.type === 'support-dropped'
          ? batch?.entries.find((e) => e.keys?.includes(event.entryKey))
          : undefined);
      if (!batch || !entry) return; // never announced in this channel: nothing to take back
      const name = event.type === 'support-dropped' ? event.displayName : event.label;
      const entries = batch.entries.flatMap((e) => (e === entry ? withoutOne(e, event) : [e]));
      const posted = batch.state === 'posted';
      const next: BatchRecord = {
        ...batch,
        entries,
        withdrawn: posted ? [...batch.withdrawn, name] : batch.withdrawn,
      };
      if (posted) {
        const batchRecord = await ledger.get({ id: batch.id, channel });
        if (batchRecord?.messageId && poster?.edit) {
          const restIn = poster.threads ? 'thread' : 'messages';
          await poster.edit(
            channel,
            batchRecord.messageId,
            await deps.render(channel, batchEvent(next, clock.now(), restIn)),
          );
        }
        await deps.batchStore.savePosted(next);
      } else {
        await deps.batchStore.saveOpen(next);
      }
      if (posted && event.type === 'support-dropped') await deps.threads.withdraw(event, channel, [batch.id]);
      await marks.markCorrected(event.originalEventId, channel, clock.now());
      deps.onCorrected?.(event, channel, posted ? 'edited' : 'unheld');
    },
  };
}

export type Corrections = ReturnType<typeof createCorrections>;
