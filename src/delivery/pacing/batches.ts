import { type Locale, splitNames } from '../../core/index.js';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import { errorSummary } from '../../domain/error-summary.js';
import type { FundbotEvent, NoticeBatchEvent, NoticeKind } from '../../domain/events.js';
import type { WarningLogger } from '../../domain/logger.js';
import type { NeutralMessage } from '../../domain/neutral-message.js';
import type { Clock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import type { DeliveryLedger, DeliveryRecord } from '../delivery-ledger.js';
import type { ItemOutcome, LaneTask } from '../lane-item.js';
import { idempotencyKeyOf } from '../lane-item.js';
import type { HoldWindow } from '../placement.js';
import type { ChannelPoster, ProjectFigures, ThreadTarget } from '../ports.js';
import type { Wakeups } from '../wakeups.js';
import { type BatchRecord, batchEvent, batchId, heldEntry } from './batch-record.js';
import type { BatchStore } from './batch-store.js';
import { closePostedBatch } from './close-posted-batch.js';
import { type LandedAfterAllDeps, removeLandedCopies, withoutLanded } from './landed-after-all.js';
import { createPacingMarks } from './pacing-marks-store.js';
import { createRecentMessages } from './recent-messages.js';

export interface BatchesDeps {
  readonly store: KeyValueStore;
  readonly batchStore: BatchStore;
  readonly ledger: DeliveryLedger;
  readonly clock: Clock;
  readonly wakeups: Wakeups;
  /** A notice as the channel reads it (its language and clock). */
  readonly render: (channel: ChannelRef, event: FundbotEvent) => Promise<NeutralMessage>;
  readonly logger: WarningLogger;
  readonly localeOf: (channel: ChannelRef) => Promise<Locale>;
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  /** Queues a task in the channel's lane. */
  readonly enqueue: (channel: ChannelRef, task: LaneTask) => void;
  /** The daily thread a supporter batch goes into, when the channel reads supporters there. */
  readonly threadFor: (
    channel: ChannelRef,
    batch: NoticeBatchEvent,
    at: number,
  ) => Promise<ThreadTarget | undefined>;
  /** A batch posted into the daily thread counts in the day's figures. */
  readonly threadCounted: (channel: ChannelRef, batch: NoticeBatchEvent, at: number) => Promise<void>;
  /** The project's figures as last read (no request), for a batch whose notices carried none. */
  readonly figuresOf?: (project: string) => Promise<ProjectFigures | undefined>;
  /** Told every batch posted (metrics, the benchmark). */
  readonly onPosted?: (batch: BatchRecord) => void;
  /** Whether the bot is known not to be able to post in the channel (its catch-ups wait for access). */
  readonly cannotPostIn: (channel: ChannelRef) => boolean;
  /** Removes an extra copy of a notice (a held one that landed late after all: landed-after-all.ts). */
  readonly removeCopy: LandedAfterAllDeps['removeCopy'];
}

const keyOf = (batch: BatchRecord) => ({ id: batch.id, channel: batch.channel });

/** A notice kept in a batch: `stored` resolves once the batch that holds it is in the store. */
export interface KeptInBatch {
  readonly stored: Promise<void>;
}

/**
 * Held notices: written into their batch BEFORE the outbox may forget them, posted
 * as one message when the batch's window ends (or, for a catch-up, when the bot can
 * post in the channel again), with every name: those that do not fit the message
 * follow in its thread. Exactly once across restarts and replicas: the ledger marks
 * each held notice with its batch before the batch is written (a crash between the
 * two is repaired when the outbox offers the notice again), and the batch is posted
 * under its own id through the ledger.
 *
 * Cost per held notice: the ledger mark, and the batch (~40 bytes a name) written once
 * for the notices that join it within `gatherMs` of each other (batch-store.ts); per
 * batch: the post, its confirmation, closing it, and one message per 2,400 characters
 * of further names.
 */
export function createBatches(deps: BatchesDeps) {
  const { store, batchStore, ledger, clock, wakeups } = deps;
  /** A batch whose post is in doubt (its record attempting); an unreadable record is not known to be. */
  const inDoubt = async (batch: BatchRecord) =>
    (await ledger.get(keyOf(batch)).catch(() => undefined))?.state === 'attempting';
  const recent = createRecentMessages(store, clock);
  const marks = createPacingMarks(store);
  /** The total each channel was last told per project, for a batch's "(+€310)". */
  const lastTotal = new Map<string, number>();
  const flushing = new Set<string>();

  function arm(batch: BatchRecord): void {
    if (batch.due === null) return;
    wakeups.at(`batch:${batch.id}`, batch.due, () => void flush(batch.id, batch.project));
  }

  /** A batch of this id was posted and closed. */
  const wentOut = async (id: string, project: string) =>
    !(await batchStore.load(project)).has(id) && (await batchStore.get(id))?.state === 'posted';

  /** Posts a batch whose time has come through its channel's lane. */
  async function flush(id: string, project: string): Promise<void> {
    const loaded = (await batchStore.load(project)).get(id);
    if (!loaded || flushing.has(id)) return;
    flushing.add(id);
    // Never posted before it is stored: a process dying after the post would leave a batch nobody knows of,
    // and its notices, offered again, would be held and named a second time.
    await batchStore.stored(id);
    const current = await batchStore.beforePosting(project, id).catch(() => loaded);
    if (!current) return void flushing.delete(id);
    const batch = await withoutLanded(ledger, current).catch(() => current);
    if (batch.entries.length === 0) {
      flushing.delete(id);
      await batchStore.close({ ...batch, state: 'posted' });
      return;
    }
    const poster = deps.posterFor(batch.channel.platform);
    const restIn = poster?.threads ? 'thread' : 'messages';
    const key = keyOf(batch);
    const record = await ledger.get(key).catch(() => undefined);
    // Stamped with the window's end, so a retry after midnight lands in the same day's thread.
    const day = batch.due ?? clock.now();
    const asEvent = batchEvent(await withLastFigures(batch), clock.now(), restIn);
    const inDailyThread = batch.kind === 'supporters';
    deps.enqueue(batch.channel, {
      type: 'post',
      key,
      idempotencyKey: idempotencyKeyOf(key),
      occurredAt: batch.since,
      kind: batch.kind,
      record,
      render: () => deps.render(batch.channel, asEvent),
      ...(inDailyThread ? { target: () => deps.threadFor(batch.channel, asEvent, day) } : {}),
      // The channel was lost meanwhile: the batch waits for the catch-up.
      hold: async () => {
        flushing.delete(id);
        await batchStore.saveOpen({ ...batch, due: null });
        return { stored: Promise.resolve() };
      },
      settle: (outcome) =>
        void posted(batch, outcome, inDailyThread ? { event: asEvent, day } : undefined).finally(() =>
          flushing.delete(id),
        ),
    });
  }

  async function posted(
    batch: BatchRecord,
    outcome: ItemOutcome,
    daily: { event: NoticeBatchEvent; day: number } | undefined,
  ) {
    if (outcome.kind !== 'posted') {
      if (outcome.kind === 'abandoned') await batchStore.close({ ...batch, state: 'posted' }).catch(() => {});
      return;
    }
    await closePostedBatch(deps, batch);
    await removeLandedCopies(deps, batch, outcome.messageId).catch(() => {});
    if (batch.fundingTotal !== null)
      lastTotal.set(`${channelKey(batch.channel)}/${batch.project}`, batch.fundingTotal);
    // A batch is one of the hour's messages: a channel busy for more than an hour stays batched
    // between windows instead of going live again once its last live notices are an hour old.
    await recent.note(batch.channel, batch.kind).catch(() => {});
    deps.onPosted?.(batch);
    const dailyThread = daily
      ? await deps.threadFor(batch.channel, daily.event, daily.day).catch(() => undefined)
      : undefined;
    if (daily && dailyThread) await deps.threadCounted(batch.channel, daily.event, daily.day).catch(() => {});
    await continueNames(
      batch.channel,
      batch.id,
      batch.project,
      batch.kind,
      batch.entries.flatMap((e) => e.names),
      outcome.messageId,
      dailyThread,
    );
  }

  /** A supporters' batch whose notices carried no figures states the project's last read, with its time. */
  async function withLastFigures(batch: BatchRecord): Promise<BatchRecord> {
    if (batch.kind !== 'supporters' || batch.supporterCount !== null || !deps.figuresOf) return batch;
    const figures = await deps.figuresOf(batch.project).catch(() => undefined);
    if (!figures) return batch;
    const { supporterCount, fundingTotal, readAt } = figures;
    return { ...batch, supporterCount, fundingTotal, countedAt: readAt };
  }

  /**
   * The names the message could not hold, in its thread (Slack: replies to it; Discord:
   * a thread started on it), else as follow-up messages: every supporter named.
   */
  async function continueNames(
    channel: ChannelRef,
    parentId: string,
    project: string,
    kind: NoticeKind,
    names: readonly string[],
    messageId: string | undefined,
    inThread: ThreadTarget | undefined,
  ): Promise<void> {
    const locale = await deps.localeOf(channel);
    const parts = splitNames(names, locale).slice(1);
    if (parts.length === 0) return;
    const poster = deps.posterFor(channel.platform);
    let thread: Promise<ThreadTarget | undefined> | undefined;
    const target = () => {
      thread ??= threadOn(poster, channel, messageId, inThread, locale);
      return thread;
    };
    parts.forEach((names, index) => {
      const key = { id: `${parentId}#names-${index + 1}`, channel };
      deps.enqueue(channel, {
        type: 'post',
        key,
        idempotencyKey: idempotencyKeyOf(key),
        occurredAt: clock.now(),
        kind,
        record: undefined,
        target,
        render: () =>
          deps.render(channel, {
            type: 'names-continued',
            id: key.id,
            project,
            occurredAt: clock.now(),
            detectedAt: clock.now(),
            kind,
            names,
            part: index + 1,
            parts: parts.length,
          }),
        settle: () => {},
      });
    });
  }

  async function threadOn(
    poster: ChannelPoster | undefined,
    channel: ChannelRef,
    messageId: string | undefined,
    inThread: ThreadTarget | undefined,
    locale: Locale,
  ): Promise<ThreadTarget | undefined> {
    if (inThread) return inThread;
    if (!poster?.threads || messageId === undefined) return undefined;
    if (poster.threads === 'replies') return { parentMessageId: messageId };
    try {
      return await poster.startThread?.(channel, messageId, locale === 'de' ? 'Alle Namen' : 'All names');
    } catch (error) {
      // No right to open threads: the names follow as messages in the channel.
      deps.logger.warn(
        { channel: channelKey(channel), ...errorSummary(error) },
        'cannot open a thread for the names: they follow in the channel',
      );
      return undefined;
    }
  }

  return {
    continueNames,

    /** Whether an `auto` batch of this channel, project and kind is open (later notices join it). */
    async autoOpen(channel: ChannelRef, project: string, kind: NoticeKind): Promise<boolean> {
      const prefix = `batch:${channelKey(channel)}:${project}:${kind}:`;
      for (const b of (await batchStore.load(project)).values()) {
        if (b.id.startsWith(prefix) && b.reason === 'paced' && !flushing.has(b.id)) return true;
      }
      return false;
    },

    /** Messages of the kind in the channel within the last hour: live notices and batches. */
    recentMessages: recent.count,

    /** Counts a live message of an `auto` kind (posted batches count themselves). */
    noteLive: recent.note,

    /** Remembers the total a live supporter notice told the channel. */
    noteTotal(channel: ChannelRef, project: string, total: number | null): void {
      if (total !== null) lastTotal.set(`${channelKey(channel)}/${project}`, total);
    },

    /**
     * Holds a notice: the ledger mark first, then the batch (see the exactly-once note
     * above). Done for the outbox only once `stored` resolves.
     */
    async hold(
      event: FundbotEvent,
      channel: ChannelRef,
      kind: NoticeKind,
      window: HoldWindow,
    ): Promise<KeptInBatch> {
      let id = batchId(channel, event.project, kind, window.since);
      let since = window.since;
      let due: number | null = Number.isFinite(window.due) ? window.due : null;
      if (flushing.has(id) || (await wentOut(id, event.project))) {
        // Its window's batch is on its way out, or went out (a catch-up posted while the stored state still opens
        // held notices at its `since`): the notice opens the next one, posted right after, never the posted id.
        since = clock.now();
        due = due === null ? null : clock.now();
        id = batchId(channel, event.project, kind, since);
      }
      await ledger.hold({ id: event.id, channel }, id);
      return this.addTo(id, event, channel, kind, { ...window, since, due: due ?? Infinity });
    },

    /** Puts the notice into its batch (creating it); idempotent by event id. */
    async addTo(
      id: string,
      event: FundbotEvent,
      channel: ChannelRef,
      kind: NoticeKind,
      window: HoldWindow,
    ): Promise<KeptInBatch> {
      const batches = await batchStore.load(event.project);
      const existing = batches.get(id);
      if (existing?.entries.some((e) => e.eventId === event.id)) return { stored: batchStore.stored(id) };
      const base: BatchRecord = existing ?? {
        id,
        project: event.project,
        kind,
        channel,
        reason: window.reason,
        since: window.since,
        due: Number.isFinite(window.due) ? window.due : null,
        state: 'open',
        entries: [],
        withdrawn: [],
        supporterCount: null,
        fundingTotal: null,
        fundingBefore: lastTotal.get(`${channelKey(channel)}/${event.project}`) ?? null,
        currency: '',
      };
      const isSupporter = event.type === 'supporter' || event.type === 'supporter-burst';
      const figures = isSupporter
        ? {
            supporterCount: event.supporterCount ?? base.supporterCount,
            fundingTotal: event.fundingTotal ?? base.fundingTotal,
            currency: event.currency || base.currency,
            ...(event.supporterCount !== null || event.fundingTotal !== null
              ? { countedAt: event.detectedAt }
              : {}),
          }
        : {};
      const batch: BatchRecord = { ...base, ...figures, entries: [...base.entries, heldEntry(event)] };
      await batchStore.gather(batch);
      if (event.type === 'supporter-burst') {
        // A drop names one supporter, not the burst: each member is findable (~100 bytes each; bursts are rare).
        for (const key of event.entryKeys ?? []) await marks.holdMember(event.project, key, channel, id);
      }
      if (!existing) arm(batch);
      return { stored: batchStore.stored(id) };
    },

    /**
     * The ledger says held in `record.batchId`: a crash may have come between the mark and
     * the batch write. Kept when the batch has it (or gets it now); 'lost' when that batch
     * went out without it (the notice is placed again).
     */
    async repairHeld(
      event: FundbotEvent,
      channel: ChannelRef,
      kind: NoticeKind,
      record: DeliveryRecord,
    ): Promise<KeptInBatch | 'lost'> {
      const id = record.batchId;
      if (id === undefined) return 'lost';
      const batch = (await batchStore.load(event.project)).get(id) ?? (await batchStore.get(id));
      if (batch?.entries.some((e) => e.eventId === event.id)) return { stored: batchStore.stored(id) };
      if (batch?.state !== 'open' || flushing.has(id)) return 'lost';
      return this.addTo(id, event, channel, kind, {
        since: batch.since,
        due: batch.due ?? Infinity,
        reason: batch.reason,
      });
    },

    /**
     * Arms the timers of a project's open batches (after it was loaded: a restart, a lease taken over). A
     * catch-up goes out now when its channel is not known to be closed (the process that held it may have died
     * after the access came back, and no later return would start it), or when it is in doubt: a look decides
     * that within its bound while the channel is closed (seed 120: 132 s, decided only once access returned).
     */
    async schedule(project: string): Promise<void> {
      for (const batch of (await batchStore.load(project)).values()) {
        if (batch.due === null && (!deps.cannotPostIn(batch.channel) || (await inDoubt(batch))))
          void flush(batch.id, batch.project);
        else arm(batch);
      }
    },

    /** The bot can post in the channel again: its held batches go out now. */
    catchUp(channel: ChannelRef): void {
      const key = channelKey(channel);
      for (const batch of batchStore.loaded()) {
        if (channelKey(batch.channel) !== key || batch.due !== null) continue;
        void flush(batch.id, batch.project);
      }
    },

    /** Where a burst member is held (set when the burst was held). */
    heldMemberBatch: (project: string, entryKey: string, channel: ChannelRef) =>
      marks.heldMemberBatch(project, entryKey, channel),
  };
}

export type Batches = ReturnType<typeof createBatches>;
