import type {
  ChannelAccess,
  ChannelAccessStates,
  ChannelRef,
  CommandCore,
  CoreLogger,
  DailyThreadSettings,
  NeutralMessage,
  PacingSettings,
  SubscriptionStore,
} from '../core/index.js';
import { channelKey, errorSummary } from '../core/index.js';
import type { EventSink } from '../domain/event-sink.js';
import { type CorrectionEvent, type FundbotEvent, noticeKindOf } from '../domain/events.js';
import type { Clock } from '../lib/clock.js';
import { type Claims, memoryClaims } from '../lib/coordination/claims.js';
import type { Random } from '../lib/random.js';
import type { KeyValueStore } from '../lib/store.js';
import { createAccessWatch } from './access-watch.js';
import { createChannelDirectory } from './channel-directory.js';
import { ChannelLane } from './channel-lane.js';
import { createCorrections } from './corrections.js';
import { createDeliveryLedger, isSettled } from './delivery-ledger.js';
import type { DeliveryObserver } from './delivery-observer.js';
import { createDoubtResolver } from './doubt-resolver.js';
import { createEventPlacement } from './event-placement.js';
import { type ItemOutcome, idempotencyKeyOf, type LaneTask } from './lane-item.js';
import type { BatchRecord } from './pacing/batch-record.js';
import { createBatchStore } from './pacing/batch-store.js';
import { createBatches } from './pacing/batches.js';
import { createDailyThreads } from './pacing/daily-thread.js';
import type { ChannelPoster } from './ports.js';
import { createPostOnce } from './post-once.js';
import { Wakeups } from './wakeups.js';

export interface DeliveryOptions {
  /** Delivery's own records: the ledger, batches, looks, pacing counts (`deliveries/` in the bot). */
  readonly store: KeyValueStore;
  /** The settings view commands write through (change-stamped, see src/lib/change-stamp.ts) and its stamp key. */
  readonly settingsStore: KeyValueStore;
  readonly settingsStampKey: string;
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor' | 'timeZoneFor'>;
  readonly subscriptions: SubscriptionStore;
  readonly pacing: PacingSettings;
  readonly dailyThreads: DailyThreadSettings;
  readonly access: ChannelAccessStates;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: CoreLogger & { info?: (details: object, message: string) => void };
  /** Once-only claims shared by the replicas (Redis); default an in-process map. */
  readonly claims?: Claims;
  readonly observer?: DeliveryObserver;
  /** The zone of the projects' day (the daily thread's date, a late notice's time). Default UTC. */
  readonly timeZone?: string;
  /** The project's funding goal for the daily thread's bar (the engine's cache). */
  readonly goalOf?: (project: string) => Promise<number | undefined>;
  /** How long one post may hold its channel before the next goes (default 10 s). */
  readonly stallMs?: number;
  /** How long a delivery may keep failing before it is given up (default 24 h). */
  readonly giveUpAfterMs?: number;
  readonly threadEditIntervalMs?: number;
  readonly onBatchPosted?: (batch: BatchRecord) => void;
  /** Told every correction made (an edit, or a name taken out of a held batch). */
  readonly onCorrected?: (event: CorrectionEvent, channel: ChannelRef, how: 'edited' | 'unheld') => void;
}

/** The delivery pipeline: see docs/architecture.md for the walk of one supporter through it. */
export interface Delivery {
  /** Each chat adapter registers its poster (and how to check a channel's access) before notices flow. */
  registerPoster(poster: ChannelPoster, access?: ChannelAccess): void;
  /** The engine's outbox port. */
  readonly sink: EventSink;
  /** A post on a schedule (the digest): once per id and channel across replicas and restarts. */
  postScheduled(request: ScheduledPost): Promise<ItemOutcome>;
  /** The platform says the bot's access to a channel (or a whole server) may have changed: re-check it now. */
  accessMayHaveChanged(scope: ChannelRef | Pick<ChannelRef, 'platform' | 'workspaceId'>): void;
  /** Loads what the store holds (channels held, batches of the old layout). */
  start(): Promise<void>;
  /** Stops the timers and waits (up to `deadlineMs`) for posts in flight. */
  stop(deadlineMs?: number): Promise<void>;
  /** Resolves once no delivery work is running (timers may be pending): tests wait on it. */
  idle(): Promise<void>;
  /** Epoch ms of the earliest timer (a set-aside post, a batch, a re-check), for a virtual clock's next step. */
  nextWakeAt(): number | undefined;
  /** Channels held because the bot cannot post there, deliveries set aside (for /healthz). */
  status(): DeliveryStatus;
}

export interface ScheduledPost {
  readonly id: string;
  readonly channel: ChannelRef;
  readonly kind: string;
  readonly occurredAt: number;
  /** Epoch ms after which posting it makes no sense any more (a day's digest): given up then. */
  readonly giveUpAt?: number;
  render(): Promise<NeutralMessage>;
}

export interface DeliveryStatus {
  readonly cannotPost: readonly {
    readonly channel: string;
    readonly reason: string;
    readonly since: number;
  }[];
  /** Deliveries queued or set aside (in doubt, refused for now) in this process. */
  readonly pending: number;
}

/** Builds the pipeline; adapters register their posters with it, the engine offers it events. */
export function createDelivery(options: DeliveryOptions): Delivery {
  const { store, clock, random, logger } = options;
  const observer = options.observer ?? {};
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
  const resolver = createDoubtResolver({ store, claims, clock });
  const directory = createChannelDirectory({
    store: options.settingsStore,
    stampKey: options.settingsStampKey,
    subscriptions: options.subscriptions,
    localeFor: (channel) => options.core.localeFor(channel),
    timeZoneFor: (channel) => options.core.timeZoneFor(channel),
    pacing: options.pacing,
    dailyThreads: options.dailyThreads,
    access: options.access,
  });
  const localeOf = async (channel: ChannelRef) => (await directory.profile(channel)).locale;
  /** A notice as the channel reads it: its language, its clock. */
  const render = async (channel: ChannelRef, event: FundbotEvent) => {
    const { locale, timeZone } = await directory.profile(channel);
    return options.core.renderNotice(event, locale, timeZone);
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
  const postOnce = createPostOnce({ ledger, resolver, posterFor, clock });
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
    ...(options.threadEditIntervalMs !== undefined ? { editIntervalMs: options.threadEditIntervalMs } : {}),
    logger,
  });
  const batchStore = createBatchStore(store);
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
    ...(options.onBatchPosted ? { onPosted: options.onBatchPosted } : {}),
  });
  const access = createAccessWatch({
    states: options.access,
    clock,
    random,
    claims,
    wakeups,
    accessFor: (platform) => accesses.get(platform),
    setBlocked: (channel, blocked) => (blocked ? laneOf(channel).block() : laneOf(channel).unblock()),
    catchUp: (channel) => batches.catchUp(channel),
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
    ...(options.onCorrected ? { onCorrected: options.onCorrected } : {}),
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
  });

  /** Per offered event: the channels still to finish; dropped once reported done. */
  const tracked = new Map<string, { readonly pending: Set<string>; readonly placed: Promise<void> }>();
  const loadedProjects = new Map<string, Promise<void>>();
  const scheduled = new Map<string, Promise<ItemOutcome>>();

  function placeEvent(event: FundbotEvent): { pending: Set<string>; placed: Promise<void> } {
    const pending = new Set<string>(['placing']);
    const placed = (async () => {
      const channels = await directory.channelsFor(event.project, noticeKindOf(event));
      for (const channel of channels) pending.add(channelKey(channel));
      pending.delete('placing');
      for (const channel of channels) {
        const key = channelKey(channel);
        await placement.place(event, channel, () => pending.delete(key));
      }
    })();
    return { pending, placed };
  }

  function scheduleThreadEdits(): void {
    wakeups.at('daily-thread-edits', clock.now() + (options.threadEditIntervalMs ?? 30_000), () => {
      void track(threads.flush())
        .catch((error: unknown) => logger.warn({ ...errorSummary(error) }, 'daily thread edits failed'))
        .finally(scheduleThreadEdits);
    });
  }

  const sink: EventSink = {
    async offer(project, events) {
      return track(
        (async () => {
          let loaded = loadedProjects.get(project);
          if (!loaded) {
            loaded = batches.schedule(project);
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
    postScheduled(request) {
      const key = { id: request.id, channel: request.channel };
      const name = idempotencyKeyOf(key);
      // Asked again while on its way (the next hourly check): the same delivery.
      const pending = scheduled.get(name);
      if (pending) return pending;
      const posting = (async (): Promise<ItemOutcome> => {
        const record = await ledger.get(key);
        if (isSettled(record)) return { kind: 'posted', messageId: record?.messageId };
        return new Promise<ItemOutcome>((resolve) =>
          enqueue(request.channel, {
            type: 'post',
            key,
            idempotencyKey: name,
            occurredAt: request.occurredAt,
            kind: request.kind,
            record,
            ...(request.giveUpAt !== undefined ? { giveUpAt: request.giveUpAt } : {}),
            render: () => request.render(),
            settle: resolve,
          }),
        );
      })().finally(() => scheduled.delete(name));
      scheduled.set(name, posting);
      return posting;
    },
    accessMayHaveChanged: (scope) => access.recheckNow(scope),
    async start() {
      await access.resume();
      const adopted = await batchStore.adoptLegacy();
      for (const b of batchStore.loaded()) void batches.schedule(b.project);
      if (adopted > 0) logger.info?.({ batches: adopted }, 'held batches of the earlier layout adopted');
      scheduleThreadEdits();
    },
    async stop(deadlineMs = 5_000) {
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
