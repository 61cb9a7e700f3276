import { z } from 'zod';
import {
  autoBatchIntervalMs,
  autoLiveLimit,
  type ChannelRef,
  type CommandCore,
  type CoreLogger,
  channelKey,
  createDailyThreadSettings,
  createPacingSettings,
  defaultBatchIntervalMs,
  defaultPacing,
  errorSummary,
  type PacingSettings,
  quietWindowAt,
  type SubscriptionStore,
} from '../core/index.js';
import {
  type CorrectionEvent,
  type FundbotEvent,
  isCorrection,
  type NoticeKind,
  noticeKindOf,
} from '../domain/events.js';
import { type Clock, systemClock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import { createDeliveryLedger, type DeliveryLedger } from './delivery-ledger.js';
import { NoticeDeliveryError, type NoticeRouter, noticeLedgerPrefix } from './notice-router.js';
import {
  type BatchRecord,
  batchEvent,
  batchId,
  batchRecordSchema,
  heldEntry,
  withoutOne,
} from './pacing/batch-record.js';
import { createDailyThreads, type DailyThreadOptions } from './pacing/daily-thread.js';
import type { ChannelPoster } from './ports.js';

const hourMs = 3_600_000;
/** Batches, held markers and correction marks live as long as delivery records. */
const keepMs = 14 * 24 * hourMs;

export interface PacedRouterOptions {
  /** The notice router that posts (exactly once, by its ledger): live notices and batches. */
  readonly router: NoticeRouter;
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor' | 'timeZoneFor'>;
  readonly subscriptions: SubscriptionStore;
  readonly posters: readonly ChannelPoster[];
  readonly store: KeyValueStore;
  readonly settings?: PacingSettings;
  /** The router's ledger (default: the same store and prefix), read to find messages to correct. */
  readonly ledger?: DeliveryLedger;
  readonly clock?: Clock;
  readonly logger?: CoreLogger;
  /** Told about every correction made (an edit, or a name taken out of a held batch). */
  readonly onCorrected?: (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => void;
  /** Told about every batch posted. */
  readonly onBatchPosted?: (batch: BatchRecord) => void;
  /** The daily thread (`/thread on`): its setting (default on this store), time zone, goal source. */
  readonly dailyThread?: Partial<
    Pick<DailyThreadOptions, 'settings' | 'timeZone' | 'goalOf' | 'editIntervalMs'>
  >;
}

/** A {@link NoticeRouter} that paces, holds and corrects; `flushDue` posts batches whose window ended. */
export interface PacedRouter extends NoticeRouter {
  flushDue(): Promise<void>;
}

/**
 * Paces notices per channel and kind (see pacing-settings.ts), holds them in
 * quiet hours, and turns drop events into edits of what was posted.
 *
 * Exactly once through batching and restarts: a held notice is written into its
 * batch record (idempotent by event id) and marked held BEFORE the outbox may
 * forget it; a batch is delivered through the notice router under its own id
 * (channel + window), so its ledger entry makes it post once, whichever replica
 * or restart flushes it.
 *
 * Cost: no API requests. Store: per held notice one batch read+write and one
 * ~120-byte held marker; per live notice of an `auto` channel one read+write of a
 * small list of timestamps; a batch record is ~100 bytes plus its names.
 */
export function createPacedRouter(options: PacedRouterOptions): PacedRouter {
  const { router, core, subscriptions, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const settings = options.settings ?? createPacingSettings(store);
  const ledger = options.ledger ?? createDeliveryLedger(store, { clock, prefix: noticeLedgerPrefix });
  const posters = new Map(options.posters.map((p) => [p.platform, p]));
  const threads = createDailyThreads({
    router,
    ledger,
    posters,
    core,
    store,
    clock,
    ...options.dailyThread,
    settings: options.dailyThread?.settings ?? createDailyThreadSettings(store),
    ...(logger ? { logger } : {}),
  });
  const openKey = 'pacing/open';
  const batchKey = (id: string) => `pacing/batch/${id}`;
  const heldKey = (eventId: string, channel: ChannelRef) => `pacing/held/${eventId}@${channelKey(channel)}`;
  /** A supporter held inside a burst: found by its entry key, as its drop names it. */
  const heldMemberKey = (project: string, entryKey: string, channel: ChannelRef) =>
    `pacing/held-member/${project}/${entryKey}@${channelKey(channel)}`;
  const recentKey = (channel: ChannelRef, kind: NoticeKind) => `pacing/recent/${channelKey(channel)}/${kind}`;
  const totalKey = (channel: ChannelRef, project: string) => `pacing/total/${channelKey(channel)}/${project}`;
  const correctedKey = (id: string, channel: ChannelRef) => `pacing/corrected/${id}@${channelKey(channel)}`;
  const ids = z.array(z.string());
  const times = z.array(z.number());

  const openIds = async () => (await store.get(openKey, ids)) ?? [];
  const loadBatch = (id: string) => store.get(batchKey(id), batchRecordSchema);
  const saveBatch = (batch: BatchRecord) => store.set(batchKey(batch.id), batch, keepMs);

  /** Counts a message of `kind` posted into the channel now (for `auto`). */
  async function notePosted(channel: ChannelRef, kind: NoticeKind) {
    const now = clock.now();
    const recent = ((await store.get(recentKey(channel, kind), times)) ?? []).filter((t) => t > now - hourMs);
    await store.set(recentKey(channel, kind), [...recent, now], hourMs);
  }

  /** Where the notice goes in this channel now: live, nowhere, or into a batch window. */
  async function placement(
    channel: ChannelRef,
    event: FundbotEvent,
    kind: NoticeKind,
    open: readonly string[],
  ): Promise<'live' | 'drop' | { since: number; due: number; reason: 'paced' | 'quiet-hours' }> {
    const now = clock.now();
    const pacing = await settings.get(channel);
    const quiet = quietWindowAt(pacing.quiet, now);
    if (quiet) return { since: quiet.start, due: quiet.end, reason: 'quiet-hours' };
    const chosen = pacing.kinds[kind] ?? defaultPacing(kind);
    const window = (intervalMs: number) => {
      const since = Math.floor(now / intervalMs) * intervalMs;
      return { since, due: since + intervalMs, reason: 'paced' as const };
    };
    switch (chosen.mode) {
      case 'live':
        return 'live';
      case 'digest':
        return 'drop';
      case 'hourly':
        return window(hourMs);
      case 'batched':
        return window(chosen.intervalMs ?? defaultBatchIntervalMs);
      case 'auto': {
        // A batch already open for this channel keeps the order: later notices join it.
        const prefix = `batch:${channelKey(channel)}:${event.project}:${kind}:`;
        if (open.some((id) => id.startsWith(prefix))) return window(autoBatchIntervalMs);
        const recent = ((await store.get(recentKey(channel, kind), times)) ?? []).filter(
          (t) => t > now - hourMs,
        );
        return recent.length < autoLiveLimit ? 'live' : window(autoBatchIntervalMs);
      }
    }
  }

  async function hold(
    channel: ChannelRef,
    event: FundbotEvent,
    kind: NoticeKind,
    win: { since: number; due: number; reason: 'paced' | 'quiet-hours' },
  ) {
    // Already held (a retry of the outbox after a crash): the batch it went into has it.
    if ((await store.get(heldKey(event.id, channel), z.string())) !== undefined) return;
    const id = batchId(channel, event.project, kind, win.since);
    const existing = await loadBatch(id);
    const base: BatchRecord = existing ?? {
      id,
      project: event.project,
      kind,
      channel,
      reason: win.reason,
      since: win.since,
      due: win.due,
      state: 'open',
      entries: [],
      withdrawn: [],
      supporterCount: null,
      fundingTotal: null,
      fundingBefore: (await store.get(totalKey(channel, event.project), z.number())) ?? null,
      currency: '',
    };
    const entry = heldEntry(event);
    const figures =
      event.type === 'supporter' || event.type === 'supporter-burst'
        ? {
            supporterCount: event.supporterCount ?? base.supporterCount,
            fundingTotal: event.fundingTotal ?? base.fundingTotal,
            currency: event.currency || base.currency,
            // The figures are as of the cycle that read them (only the newest supporter of a cycle has them).
            ...(event.supporterCount !== null || event.fundingTotal !== null
              ? { countedAt: event.detectedAt }
              : {}),
          }
        : {};
    const batch: BatchRecord = base.entries.some((e) => e.eventId === event.id)
      ? base
      : { ...base, ...figures, entries: [...base.entries, entry] };
    await saveBatch(batch);
    if (!existing) {
      const open = await openIds();
      if (!open.includes(id)) await store.set(openKey, [...open, id]);
    }
    if (event.type === 'supporter-burst') {
      // A drop names the one supporter, not the burst: each member is findable (~100 bytes each).
      for (const key of event.entryKeys ?? []) {
        await store.set(heldMemberKey(event.project, key, channel), id, keepMs);
      }
    }
    await store.set(heldKey(event.id, channel), id, keepMs);
  }

  // One flush at a time in this process: deliveries and the app's poll hook both call it.
  let flushing: Promise<void> | undefined;
  function flushDue(): Promise<void> {
    flushing ??= flushOnce().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  async function flushOnce(): Promise<void> {
    const now = clock.now();
    const open = await openIds();
    const done: string[] = [];
    for (const id of open) {
      const batch = await loadBatch(id);
      if (!batch || batch.state === 'posted') {
        done.push(id);
        continue;
      }
      if (batch.due > now) continue;
      if (batch.entries.length === 0) {
        done.push(id);
        continue;
      }
      try {
        const event = batchEvent(batch, now);
        if (batch.kind === 'supporters' && (await threads.threaded([batch.channel])).size > 0) {
          // Stamped with the window's end, so a retry after midnight lands in the same day's thread.
          await threads.deliver(event, [batch.channel], batch.due);
        } else {
          await router.deliver(event, [batch.channel]);
        }
      } catch (error) {
        logger?.warn(
          { batch: id, ...errorSummary(error) },
          'batch not posted yet: retried at the next flush',
        );
        continue;
      }
      await saveBatch({ ...batch, state: 'posted' });
      await notePosted(batch.channel, batch.kind);
      if (batch.fundingTotal !== null) {
        await store.set(totalKey(batch.channel, batch.project), batch.fundingTotal, keepMs);
      }
      options.onBatchPosted?.(batch);
      done.push(id);
    }
    if (done.length > 0) {
      const latest = await openIds();
      await store.set(
        openKey,
        latest.filter((id) => !done.includes(id)),
      );
    }
    // The daily threads' parents catch up with their replies: at most one edit each per flush.
    await threads.flush();
  }

  async function correct(event: CorrectionEvent): Promise<void> {
    const subscribed = await subscriptions.forProject(event.project, noticeKindOf(event));
    const failed: string[] = [];
    let firstFailure: unknown;
    for (const { channel } of subscribed) {
      try {
        await correctIn(channel, event);
      } catch (error) {
        failed.push(channelKey(channel));
        firstFailure ??= error;
      }
    }
    if (failed.length > 0) throw new NoticeDeliveryError(event.id, failed, { cause: firstFailure });
  }

  async function correctIn(channel: ChannelRef, event: CorrectionEvent): Promise<void> {
    const mark = correctedKey(event.originalEventId, channel);
    if ((await store.get(mark, z.number())) !== undefined) return;
    const poster = posters.get(channel.platform);
    const locale = await core.localeFor(channel);
    const zone = await core.timeZoneFor(channel);
    const record = await ledger.get({ id: event.originalEventId, channel });
    if (record?.state === 'posted' && record.messageId) {
      if (!poster?.edit) return;
      await poster.edit(channel, record.messageId, core.renderNotice(event, locale, zone));
      if (event.type === 'support-dropped') await threads.withdraw(event, channel, []);
      await store.set(mark, clock.now(), keepMs);
      options.onCorrected?.(event, channel, 'edited');
      return;
    }
    const heldIn =
      (await store.get(heldKey(event.originalEventId, channel), z.string())) ??
      (event.type === 'support-dropped'
        ? await store.get(heldMemberKey(event.project, event.entryKey, channel), z.string())
        : undefined);
    const batch = heldIn ? await loadBatch(heldIn) : undefined;
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
        await poster.edit(
          channel,
          batchRecord.messageId,
          core.renderNotice(batchEvent(next, clock.now()), locale, zone),
        );
      }
    }
    await saveBatch(next);
    if (posted && event.type === 'support-dropped') await threads.withdraw(event, channel, [batch.id]);
    await store.set(mark, clock.now(), keepMs);
    options.onCorrected?.(event, channel, posted ? 'edited' : 'unheld');
  }

  async function deliver(event: FundbotEvent, only?: readonly ChannelRef[]): Promise<void> {
    // Windows that ended go first, so the channel reads in order.
    await flushDue();
    if (isCorrection(event)) return correct(event);
    if (event.type === 'notice-batch') return router.deliver(event, only);
    const kind = noticeKindOf(event);
    const wanted = only ? new Set(only.map(channelKey)) : undefined;
    const subscribed = (await subscriptions.forProject(event.project, kind)).filter(
      (s) => !wanted || wanted.has(channelKey(s.channel)),
    );
    const open = await openIds();
    const live: ChannelRef[] = [];
    for (const { channel } of subscribed) {
      const where = await placement(channel, event, kind, open);
      if (where === 'live') live.push(channel);
      else if (where !== 'drop') await hold(channel, event, kind, where);
    }
    if (live.length === 0) return;
    for (const channel of live) {
      // Counted before posting: a retried post is still one message.
      if ((await ledger.get({ id: event.id, channel })) === undefined) await notePosted(channel, kind);
    }
    const isSupporter = event.type === 'supporter' || event.type === 'supporter-burst';
    const threaded = isSupporter ? await threads.threaded(live) : new Set<string>();
    const inChannel = live.filter((c) => !threaded.has(channelKey(c)));
    const inThread = live.filter((c) => threaded.has(channelKey(c)));
    // Both go out even when one fails: the outbox's retry then skips what was posted.
    const outcomes = await Promise.allSettled([
      inThread.length > 0 && isSupporter ? threads.deliver(event, inThread, event.detectedAt) : undefined,
      inChannel.length > 0 ? router.deliver(event, inChannel) : undefined,
    ]);
    const rejected = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    if (rejected.length > 0) {
      const failed = rejected.flatMap((e) => (e instanceof NoticeDeliveryError ? e.failedChannels : []));
      throw new NoticeDeliveryError(event.id, failed, { cause: rejected[0] });
    }
    if ((event.type === 'supporter' || event.type === 'supporter-burst') && event.fundingTotal !== null) {
      for (const channel of live)
        await store.set(totalKey(channel, event.project), event.fundingTotal, keepMs);
    }
  }

  return { deliver, flushDue };
}
