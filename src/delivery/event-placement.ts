import { type CannotPost, formatClock, pacingTexts, splitNames } from '../core/index.js';
import type { ChannelRef } from '../domain/channels.js';
import { type FundbotEvent, isCorrection, type NoticeKind, noticeKindOf } from '../domain/events.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import { passesFilters } from '../domain/notice-rules.js';
import { defaultPacing } from '../domain/pacing-modes.js';
import { crossesLowStock } from '../domain/reward-stock.js';
import type { Clock } from '../lib/clock.js';
import type { ChannelDirectory } from './channel-directory.js';
import type { Corrections } from './corrections.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import { isSettled } from './delivery-ledger.js';
import { idempotencyKeyOf, type LaneTask } from './lane-item.js';
import type { Batches } from './pacing/batches.js';
import type { DailyThreads } from './pacing/daily-thread.js';
import type { ThreadNotice } from './pacing/daily-thread-record.js';
import { placeNotice } from './placement.js';
import type { ChannelPoster } from './ports.js';

export interface EventPlacementDeps {
  readonly clock: Clock;
  readonly ledger: DeliveryLedger;
  readonly directory: ChannelDirectory;
  readonly batches: Batches;
  readonly threads: DailyThreads;
  readonly corrections: Corrections;
  /** A notice as the channel reads it (its language and clock). */
  readonly render: (channel: ChannelRef, event: FundbotEvent) => Promise<NeutralMessage>;
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  readonly enqueue: (channel: ChannelRef, task: LaneTask) => void;
  /** When the bot could not post in a channel since (set when a post was refused for good). */
  readonly cannotPostSince: (channel: ChannelRef) => number | undefined;
  /** A notice was held for a channel the store says cannot be posted in: re-check it from here too. */
  readonly heldForNoAccess: (channel: ChannelRef, state: CannotPost) => void;
  /** A notice new to the channel was placed (or skipped by a rule of the channel): the delivery trace keeps it. */
  readonly traced: (event: FundbotEvent, channel: ChannelRef, skipped?: 'filtered' | 'digest') => void;
}

/**
 * Places one event in one channel, reading its delivery record once: done already
 * (posted, given up), held (kept in its batch: repaired after a crash between the two
 * writes), in doubt or failing (queued: the lane decides), or new: placed by the
 * channel's pacing (placement.ts) into a batch, nowhere, or its lane. `done` is called
 * when the channel needs nothing more of the event, so the outbox may forget it.
 */
export function createEventPlacement(deps: EventPlacementDeps) {
  const { clock, ledger, directory, batches } = deps;

  async function render(event: FundbotEvent, channel: ChannelRef, late: boolean): Promise<NeutralMessage> {
    const { locale, timeZone } = await directory.profile(channel);
    const poster = deps.posterFor(channel.platform);
    const restNamedIn = poster?.threads ? ('thread' as const) : ('messages' as const);
    const shown =
      event.type === 'supporter-burst' && event.entryKeys !== undefined ? { ...event, restNamedIn } : event;
    const message = await deps.render(channel, shown);
    if (!late) return message;
    // Posted after notices that came later: it says when it happened.
    const line = pacingTexts(locale).happenedAt(formatClock(event.occurredAt, locale, timeZone));
    return { ...message, text: message.text ? `${message.text}\n${line}` : line };
  }

  function correction(
    event: FundbotEvent & { originalEventId: string },
    channel: ChannelRef,
    done: () => void,
  ): LaneTask {
    return {
      type: 'edit',
      label: `correction of ${event.originalEventId}`,
      run: async () => {
        if (!isCorrection(event)) return;
        await deps.corrections.correctIn(channel, event);
      },
      settle: () => done(),
    };
  }

  return {
    async place(event: FundbotEvent, channel: ChannelRef, done: () => void): Promise<void> {
      if (isCorrection(event)) {
        deps.enqueue(channel, correction(event, channel, done));
        return;
      }
      // A low-stock drop is a notice only where it crosses the channel's own threshold.
      if (
        event.type === 'reward-low-stock' &&
        !crossesLowStock(event, (await directory.profile(channel)).lowStock)
      ) {
        return done();
      }
      const kind = noticeKindOf(event);
      const key = { id: event.id, channel };
      let record = await ledger.get(key);
      if (isSettled(record)) return done();
      // The channel's /filter drops it: never posted, shown "filtered" by /notices.
      if (record === undefined && !passesFilters(event, (await directory.profile(channel)).rules)) {
        deps.traced(event, channel, 'filtered');
        return done();
      }
      if (record?.state === 'held') {
        const kept = await batches.repairHeld(event, channel, kind, record);
        if (kept !== 'lost') return void kept.stored.then(done);
        record = undefined; // its batch went out without it: placed again below
      }
      const supporter = event.type === 'supporter' || event.type === 'supporter-burst';
      let thread = false;
      // Feed health is said at once whatever the channel's pacing: it is rare, and a batch would hide it. A
      // channel the bot cannot post in is not told (no catch-up: a stale warning helps nobody there).
      const paced = event.type !== 'feed-health';
      if (!paced && record === undefined) deps.traced(event, channel);
      if (!paced && (await directory.profile(channel)).cannotPost) return done();
      if (paced && (record === undefined || record.state === 'failing')) {
        const profile = await directory.profile(channel);
        const auto = (profile.pacing.kinds[kind] ?? defaultPacing(kind)).mode === 'auto';
        const placement = placeNotice({
          kind,
          supporter,
          profile,
          now: clock.now(),
          recentMessages: auto ? await batches.recentMessages(channel, kind) : 0,
          autoBatchOpen: auto ? await batches.autoOpen(channel, event.project, kind) : false,
        });
        if (record === undefined)
          deps.traced(event, channel, placement.where === 'drop' ? 'digest' : undefined);
        if (placement.where === 'drop') return done();
        if (placement.where === 'hold') {
          const kept = await batches.hold(event, channel, kind, placement.window);
          if (profile.cannotPost) deps.heldForNoAccess(channel, profile.cannotPost);
          // Done for the outbox once the batch is stored: a crash before then offers it again.
          return void kept.stored.then(done);
        }
        thread = placement.thread;
        // Counted before posting: a retried post is still one message.
        if (auto && record === undefined) await batches.noteLive(channel, kind);
      } else if (supporter && record !== undefined) {
        // In doubt from an earlier attempt: it goes where that attempt went.
        thread = record.thread !== undefined;
      }
      deps.enqueue(channel, liveItem(event, channel, kind, record, thread, done));
    },
  };

  function liveItem(
    event: FundbotEvent,
    channel: ChannelRef,
    kind: NoticeKind,
    record: Awaited<ReturnType<DeliveryLedger['get']>>,
    thread: boolean,
    done: () => void,
  ): LaneTask {
    const key = { id: event.id, channel };
    const threadNotice = thread ? (event as ThreadNotice) : undefined;
    return {
      type: 'post',
      key,
      idempotencyKey: idempotencyKeyOf(key),
      occurredAt: event.occurredAt,
      kind,
      record,
      render: (late) => render(event, channel, late),
      ...(threadNotice
        ? { target: () => deps.threads.targetFor(threadNotice, channel, event.detectedAt) }
        : {}),
      ...(event.type === 'feed-health'
        ? {}
        : {
            hold: () =>
              batches.hold(event, channel, kind, {
                since: deps.cannotPostSince(channel) ?? clock.now(),
                due: Infinity,
                reason: 'no-access',
              }),
          }),
      settle: (outcome) => {
        if (outcome.kind === 'posted') void afterPost(event, channel, kind, threadNotice, outcome.messageId);
        done();
      },
    };
  }

  async function afterPost(
    event: FundbotEvent,
    channel: ChannelRef,
    kind: NoticeKind,
    threadNotice: ThreadNotice | undefined,
    messageId: string | undefined,
  ): Promise<void> {
    if (event.type === 'supporter' || event.type === 'supporter-burst') {
      batches.noteTotal(channel, event.project, event.fundingTotal);
    }
    if (threadNotice) await deps.threads.counted(threadNotice, channel, event.detectedAt).catch(() => {});
    if (event.type === 'supporter-burst' && event.entryKeys !== undefined) {
      const { locale } = await directory.profile(channel);
      if (splitNames(event.displayNames, locale).length > 1) {
        const target = threadNotice
          ? await deps.threads.targetFor(threadNotice, channel, event.detectedAt)
          : undefined;
        await batches.continueNames(
          channel,
          event.id,
          event.project,
          kind,
          event.displayNames,
          messageId,
          target,
        );
      }
    }
  }
}

export type EventPlacement = ReturnType<typeof createEventPlacement>;
