import type { ChannelAccess, ChannelRef } from '../domain/channels.js';
import { channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import type { EventSink } from '../domain/event-sink.js';
import { type FundbotEvent, noticeKindOf, noticeKindsOf } from '../domain/events.js';
import { pingFor } from '../domain/notice-rules.js';
import { traceEntryOf } from '../domain/notice-trace.js';
import { type BackoffPolicy, backoffMs } from '../lib/backoff.js';
import { memoryClaims } from '../lib/coordination/claims.js';
import { createAccessWatch } from './access-watch.js';
import { createAwaitingAccess } from './awaiting-access.js';
import { createChannelDirectory } from './channel-directory.js';
import { ChannelLane } from './channel-lane.js';
import { createCopyWatchStore } from './copy-watch-store.js';
import { createCorrections } from './corrections.js';
import type { Delivery, DeliveryOptions } from './delivery-api.js';
import { createDeliveryLedger } from './delivery-ledger.js';
import { createDoubtResolver } from './doubt-resolver.js';
import { createEventPlacement } from './event-placement.js';
import type { LaneTask } from './lane-item.js';
import { createNoticeTrace } from './notice-trace-store.js';
import { createBatchStore } from './pacing/batch-store.js';
import { createBatches } from './pacing/batches.js';
import { createDailyThreads } from './pacing/daily-thread.js';
import type { ChannelPoster } from './ports.js';
import { createPostOnce } from './post-once.js';
import { createScheduledPosts } from './scheduled-posts.js';
import { createSightingIntake } from './sighting-intake.js';
import { traceCorrection, withTraceObserver } from './trace-observer.js';
import { Wakeups } from './wakeups.js';
import { createWitness } from './witness.js';

export type { Delivery, DeliveryOptions, DeliveryStatus, ScheduledPost } from './delivery-api.js';

/**
 * A held notice's batch is written this long after it joined, with the notices that
 * joined meanwhile: one write for a few held notices instead of one each. The outbox
 * keeps them until then; the batch goes out minutes later.
 */
export const heldWriteGatherMs = 5_000;
/** Re-reading held work after a failed start: 1 s doubling to a minute. */
const resumeBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000, jitter: 'spread' };
/** Builds the pipeline; adapters register their posters with it, the engine offers it events. */
export function createDelivery(options: DeliveryOptions): Delivery {
  const { store, clock, random, logger } = options;
  const claims = options.claims ?? memoryClaims(clock, 'this-process');
  const wakeups = new Wakeups(clock);
  const posters = new Map<ChannelRef['platform'], ChannelPoster>();
  const accesses = new Map<ChannelRef['platform'], ChannelAccess>();
  const posterFor = (platform: ChannelRef['platform']) => posters.get(platform);
  const lanes = new Map<string, ChannelLane>();
  let running = 0;
  let idleWaiters: (() => void)[] = [];
  const track = <T>(work: Promise<T>): Promise<T> => {
    running += 1;
    return work.finally(() => {
      running -= 1;
      if (running === 0) setImmediate(wakeIdle);
    });
  };
  function wakeIdle(): void {
    if (running > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  const ledger = createDeliveryLedger(store, {
    clock,
    prefix: 'notices/delivered/',
    ...(options.claims ? { claims: options.claims } : {}),
  });
  // Each channel's recent notices (/notices, /why): what the ledger cannot list by channel.
  const trace = createNoticeTrace({
    store,
    ledger,
    batchOf: (id) => batchStore.get(id),
    cannotPostSince: (channel) => access.since(channel),
    logger,
    now: () => clock.now(),
    track,
  });
  const observer = withTraceObserver(options.observer ?? {}, trace, clock);
  const witness = createWitness({ store, clock });
  const copyWatches = createCopyWatchStore(store, clock);
  const resolver = createDoubtResolver({
    store,
    claims,
    clock,
    witness,
    ...(options.postingReplicas ? { postingReplicas: options.postingReplicas } : {}),
  });
  const directory = createChannelDirectory({
    store: options.settingsStore,
    stampKey: options.settingsStampKey,
    subscriptions: options.subscriptions,
    localeFor: (channel) => options.core.localeFor(channel),
    timeZoneFor: (channel) => options.core.timeZoneFor(channel),
    pacing: options.pacing,
    dailyThreads: options.dailyThreads,
    access: options.access,
    lowStock: options.lowStock,
    ...(options.noticeRules ? { noticeRules: options.noticeRules } : {}),
  });
  const localeOf = async (channel: ChannelRef) => (await directory.profile(channel)).locale;
  /** A notice as the channel reads it: its language, its clock, and the group its admin chose to ping on its kind. */
  const render = async (channel: ChannelRef, event: FundbotEvent) => {
    const { locale, timeZone, rules } = await directory.profile(channel);
    const message = options.core.renderNotice(event, locale, timeZone);
    const ping = pingFor(event, noticeKindOf(event), rules);
    return ping ? { ...message, ping } : message;
  };
  const laneOf = (channel: ChannelRef): ChannelLane => {
    const key = channelKey(channel);
    let lane = lanes.get(key);
    if (!lane) {
      lane = new ChannelLane(channel, {
        clock,
        random,
        ledger,
        resolver,
        wakeups,
        posterFor,
        observer,
        logger,
        witness,
        copyWatches,
        cannotPost: (ch, error) => access.cannotPost(ch, error),
        track,
        stallMs: options.stallMs ?? 10_000,
        giveUpAfterMs: options.giveUpAfterMs ?? 24 * 3_600_000,
      });
      lanes.set(key, lane);
    }
    return lane;
  };
  const enqueue = (channel: ChannelRef, task: LaneTask) => laneOf(channel).push(task);
  const awaitingAccess = createAwaitingAccess(enqueue);
  const postOnce = createPostOnce({
    ledger,
    resolver,
    posterFor,
    clock,
    reposted: (item, canonical) => laneOf(item.key.channel).watchRepost(item, canonical),
  });
  const witnessed = createSightingIntake({
    witness,
    ledger,
    laneOf,
    existingLane: (channel) => lanes.get(channelKey(channel)),
    lanes: () => lanes.values(),
    logger,
    observer,
    track,
    batch: (id) => batchStore.get(id),
  });
  const threads = createDailyThreads({
    posterFor,
    render,
    localeOf,
    store,
    clock,
    postOnce,
    enqueueEdit: enqueue,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    ...(options.goalOf ? { goalOf: options.goalOf } : {}),
    ...(options.figuresOf ? { figuresOf: options.figuresOf } : {}),
    ...(options.threadEditIntervalMs !== undefined ? { editIntervalMs: options.threadEditIntervalMs } : {}),
    logger,
  });
  const batchStore = createBatchStore(store, { gatherMs: heldWriteGatherMs, wakeups, clock });
  const batches = createBatches({
    store,
    batchStore,
    ledger,
    clock,
    wakeups,
    render,
    logger,
    localeOf,
    posterFor,
    enqueue,
    threadFor: async (channel, batch, at) =>
      (await directory.profile(channel)).dailyThread ? threads.targetFor(batch, channel, at) : undefined,
    threadCounted: (channel, batch, at) => threads.counted(batch, channel, at),
    ...(options.figuresOf ? { figuresOf: options.figuresOf } : {}),
    ...(options.onBatchPosted ? { onPosted: options.onBatchPosted } : {}),
    removeCopy: (channel, id, canonical, copy) => laneOf(channel).removeCopies(id, canonical, [copy]),
    cannotPostIn: (channel) => access.since(channel) !== undefined,
  });
  const access = createAccessWatch({
    states: options.access,
    clock,
    random,
    claims,
    wakeups,
    accessFor: (platform) => accesses.get(platform),
    setBlocked: (channel, blocked) => (blocked ? laneOf(channel).block() : laneOf(channel).unblock()),
    catchUp: (channel) => {
      batches.catchUp(channel);
      awaitingAccess.resume(channel);
    },
    invalidate: () => directory.invalidate(),
    observer,
    logger,
    track,
  });
  const corrections = createCorrections({
    store,
    ledger,
    batchStore,
    batches,
    threads,
    render,
    posterFor,
    clock,
    onCorrected: traceCorrection(trace, clock, options.onCorrected),
  });
  const postScheduled = createScheduledPosts({
    ledger,
    enqueue,
    park: (item) => awaitingAccess.park(item),
    watchesAccess: (platform) => accesses.has(platform),
    batches,
    logger,
  });
  const placement = createEventPlacement({
    clock,
    ledger,
    directory,
    batches,
    threads,
    corrections,
    render,
    posterFor,
    enqueue,
    cannotPostSince: (channel) => access.since(channel),
    heldForNoAccess: (channel, state) => access.heldFor(channel, state),
    traced: (event, channel, skipped) =>
      trace.note(channel, { ...traceEntryOf(event, clock.now()), ...(skipped ? { skipped } : {}) }),
  });

  /** Per offered event: the channels still to finish; dropped once reported done. */
  const tracked = new Map<string, { readonly pending: Set<string>; readonly placed: Promise<void> }>();
  const loadedProjects = new Map<string, Promise<void>>();

  function placeEvent(event: FundbotEvent): { pending: Set<string>; placed: Promise<void> } {
    const pending = new Set<string>(['placing']);
    const placed = (async () => {
      const channels = await directory.channelsFor(event.project, noticeKindsOf(event));
      for (const channel of channels) pending.add(channelKey(channel));
      pending.delete('placing');
      for (const channel of channels) {
        const key = channelKey(channel);
        await placement.place(event, channel, () => pending.delete(key));
      }
    })();
    return { pending, placed };
  }

  /**
   * What the store says is pending (held channels, held batches). A store that is down
   * at start does not stop the bot: notices queue in memory and this retries with the
   * one backoff until the store answers.
   */
  async function resumeStoredWork(attempt: number): Promise<void> {
    try {
      await access.resume();
      // Watches for late copies an earlier process left: a restart inside one's span goes on with it.
      for (const watch of await copyWatches.all()) laneOf(watch.channel).resumeWatch(watch);
      const adopted = await batchStore.adoptLegacy();
      for (const b of batchStore.loaded()) void batches.schedule(b.project);
      if (adopted > 0) logger.info?.({ batches: adopted }, 'held batches of the earlier layout adopted');
    } catch (error) {
      const waitMs = backoffMs(resumeBackoff, attempt, () => random.next());
      logger.warn(
        { ...errorSummary(error), retryInMs: waitMs },
        'delivery could not read its held work from the store yet',
      );
      wakeups.at('resume-stored-work', clock.now() + waitMs, () => void resumeStoredWork(attempt + 1));
    }
  }

  function scheduleThreadEdits(): void {
    wakeups.at('daily-thread-edits', clock.now() + (options.threadEditIntervalMs ?? 30_000), () => {
      void track(threads.flush())
        .catch((error: unknown) => logger.warn({ ...errorSummary(error) }, 'daily thread edits failed'))
        .finally(scheduleThreadEdits);
    });
  }

  const sink: EventSink = {
    async offer(project, events, adopting) {
      return track(
        (async () => {
          let loaded = loadedProjects.get(project);
          if (!loaded || adopting) {
            // Taken (back) over: another replica may have opened, filled or posted its batches meanwhile
            // (seed 122: a batch opened there was never armed here, its notices never named).
            loaded = (loaded ? loaded.then(() => batchStore.reload(project)) : Promise.resolve()).then(() =>
              batches.schedule(project),
            );
            loadedProjects.set(project, loaded);
            loaded.catch(() => loadedProjects.delete(project));
          }
          await loaded;
          if (await directory.refresh()) await access.settingsChanged();
          const done: string[] = [];
          for (const event of events) {
            let entry = tracked.get(event.id);
            if (!entry) {
              entry = placeEvent(event);
              tracked.set(event.id, entry);
            }
            try {
              await entry.placed;
            } catch (error) {
              // Read or written nothing certain: placed again at the next offer (the ledger dedupes).
              tracked.delete(event.id);
              logger.warn(
                { event: event.id, ...errorSummary(error) },
                'notice not placed yet: offered again',
              );
              break;
            }
            if (entry.pending.size === 0) {
              done.push(event.id);
              tracked.delete(event.id);
            }
          }
          return done;
        })(),
      );
    },
  };

  return {
    sink,
    registerPoster(poster, channelAccess) {
      posters.set(poster.platform, poster);
      if (channelAccess) accesses.set(poster.platform, channelAccess);
      for (const lane of lanes.values()) if (lane.channel.platform === poster.platform) lane.kick();
    },
    postScheduled,
    accessMayHaveChanged: (scope) => access.recheckNow(scope),
    recentNotices: (channel, limit) => trace.read(channel, limit),
    witnessed,
    witnessInterrupted: (platform) => witness.interrupted(platform),
    witnessConnected: (platform) => witness.connected(platform),
    async start() {
      scheduleThreadEdits();
      await resumeStoredWork(1);
    },
    async stop(deadlineMs = 5_000) {
      // Held notices gathering for their batch's write: stored now, so the outbox need not offer them again.
      await batchStore.storeGathered().catch(() => {});
      await trace.flushAll();
      wakeups.stop();
      if (deadlineMs <= 0) return;
      const deadline = new AbortController();
      await Promise.race([this.idle(), clock.sleep(deadlineMs, deadline.signal).catch(() => {})]);
      deadline.abort(new Error('delivery stopped'));
    },
    nextWakeAt: () => wakeups.next,
    idle() {
      if (running === 0) return new Promise((resolve) => setImmediate(resolve));
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    status() {
      return {
        cannotPost: access.held().map(({ channel, state }) => ({
          channel: channelKey(channel),
          reason: state.reason,
          since: state.since,
        })),
        pending: [...lanes.values()].reduce((sum, lane) => sum + lane.size, 0),
      };
    },
  };
}
