import type { CommandCore } from '../../src/core/command-core.js';
import { createCommandCore } from '../../src/core/create-command-core.js';
import type { ChannelAccess, ChannelRef, SubscriptionStore } from '../../src/core/ports.js';
import {
  type ChannelAccessStates,
  createChannelAccessStates,
} from '../../src/core/settings/channel-access-states.js';
import {
  createDailyThreadSettings,
  type DailyThreadSettings,
} from '../../src/core/settings/daily-thread-settings.js';
import { createLowStockSettings, type LowStockSettings } from '../../src/core/settings/low-stock-settings.js';
import { createPacingSettings, type PacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createSettingsStore, type SettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { createDelivery, type Delivery, type DeliveryOptions } from '../../src/delivery/create-delivery.js';
import type { DeliveryObserver } from '../../src/delivery/delivery-observer.js';
import type { ChannelPoster } from '../../src/delivery/ports.js';
import type { FundbotEvent, NoticeKind } from '../../src/domain/events.js';
import { noticeKinds } from '../../src/domain/events.js';
import { withChangeStamp } from '../../src/lib/change-stamp.js';
import type { Claims } from '../../src/lib/coordination/claims.js';
import { seededRandom } from '../../src/lib/random.js';
import { type KeyValueStore, memoryStore, namespaced } from '../../src/lib/store.js';
import { buildProject, t0 } from '../support/builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { ManualClock } from '../support/manual-clock.js';
import { RecordingLogger } from '../support/recording-poster.js';

/** Everything a delivery test drives: the real pipeline on a store and a virtual clock, posters of the test's choosing. */
export interface PipelineHarness {
  readonly clock: ManualClock;
  readonly store: KeyValueStore;
  readonly delivery: Delivery;
  readonly core: CommandCore;
  readonly subscriptions: SubscriptionStore;
  readonly settings: SettingsStore;
  readonly pacing: PacingSettings;
  readonly dailyThreads: DailyThreadSettings;
  readonly lowStock: LowStockSettings;
  readonly access: ChannelAccessStates;
  readonly logger: RecordingLogger;
  /** Offers the events (one project's, in order) and waits until the pipeline has nothing running. */
  offer(...events: FundbotEvent[]): Promise<readonly string[]>;
  /** Moves the clock and waits until the pipeline has nothing running. */
  advance(ms: number): Promise<void>;
  /** Waits until no delivery work runs (the timers may be pending). */
  settle(): Promise<void>;
  subscribe(channel: ChannelRef, kinds?: readonly NoticeKind[], project?: string): Promise<void>;
  /** Stops the pipeline (a crash keeps nothing in memory: open a new harness on the same store). */
  stop(): Promise<void>;
}

export interface PipelineOptions {
  readonly posters: readonly ChannelPoster[];
  readonly store?: KeyValueStore;
  readonly clock?: ManualClock;
  /** A platform's channel check (re-checks of a channel the bot cannot post in). */
  readonly access?: Partial<Record<ChannelRef['platform'], ChannelAccess>>;
  readonly claims?: Claims;
  readonly observer?: DeliveryObserver;
  /** The configured zone of the channels' times (the core's `timeZone`; default UTC). */
  readonly timeZone?: string;
  readonly overrides?: Partial<
    Pick<
      DeliveryOptions,
      | 'stallMs'
      | 'giveUpAfterMs'
      | 'timeZone'
      | 'threadEditIntervalMs'
      | 'goalOf'
      | 'figuresOf'
      | 'postingReplicas'
    >
  >;
}

export const stampKey = 'settings/stamp';

/** The real pipeline with the real core's renderer, as src/app/wire-fundbot.ts builds it. */
export async function startPipeline(options: PipelineOptions): Promise<PipelineHarness> {
  const clock = options.clock ?? new ManualClock(t0);
  const store = options.store ?? memoryStore();
  let stamp = 0;
  const settingsStore = withChangeStamp(store, stampKey, () => {
    stamp += 1;
    return `${clock.now()}-${stamp}`;
  });
  const subscriptions = createSubscriptionStore(settingsStore, { clock });
  const settings = createSettingsStore(settingsStore);
  const pacing = createPacingSettings(settingsStore);
  const dailyThreads = createDailyThreadSettings(settingsStore);
  const lowStock = createLowStockSettings(settingsStore);
  const access = createChannelAccessStates(settingsStore);
  const readModel = new FakeReadModel({ clock, projects: [{ project: buildProject() }] });
  const core = createCommandCore({
    readModel,
    subscriptions,
    settings,
    clock,
    version: 'test',
    pacing,
    dailyThreads,
    lowStock,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    // /subscriptions and /status show a channel the bot cannot post in.
    channelAccessStates: access,
    // /notices and /why read the pipeline's trace (bound below, as wire-fundbot.ts binds it).
    recentNotices: (channel, limit) => delivery.recentNotices(channel, limit),
  });
  const logger = new RecordingLogger();
  const delivery = createDelivery({
    store: namespaced(store, 'deliveries/'),
    settingsStore,
    settingsStampKey: stampKey,
    core,
    subscriptions,
    pacing,
    dailyThreads,
    lowStock,
    access,
    clock,
    random: seededRandom(7),
    logger,
    ...(options.claims ? { claims: options.claims } : {}),
    ...(options.observer ? { observer: options.observer } : {}),
    ...options.overrides,
  });
  for (const poster of options.posters) delivery.registerPoster(poster, options.access?.[poster.platform]);
  await delivery.start();

  const settle = async () => {
    // Work can start more work (a set-aside post, a follow-up): wait until a round finds nothing running.
    for (let round = 0; round < 20; round += 1) await delivery.idle();
  };
  return {
    clock,
    store,
    delivery,
    core,
    subscriptions,
    settings,
    pacing,
    dailyThreads,
    lowStock,
    access,
    logger,
    async offer(...events) {
      const project = events[0]?.project ?? 'solar-kiosk';
      const done = await delivery.sink.offer(project, events);
      await settle();
      return done;
    },
    async advance(ms) {
      // Step from timer to timer, as real time would fire them, then to the end.
      const target = clock.now() + ms;
      let sameTime = 0;
      for (
        let next = delivery.nextWakeAt();
        next !== undefined && next <= target;
        next = delivery.nextWakeAt()
      ) {
        // Setting the clock (even to now) wakes the sleepers that are due.
        clock.set(Math.max(next, clock.now()));
        await settle();
        // Work that keeps asking to run at the same time would never let the clock move: go on after a while.
        sameTime = delivery.nextWakeAt() === next ? sameTime + 1 : 0;
        if (sameTime > 20) break;
      }
      clock.set(target);
      await settle();
    },
    settle,
    async subscribe(channel, kinds = noticeKinds.filter((k) => k !== 'digest'), project = 'solar-kiosk') {
      await subscriptions.subscribe(channel, project, kinds, 'U-admin');
    },
    stop: () => delivery.stop(0),
  };
}

/**
 * Moves the clock in steps (each step fires what is due, and what that schedules for the
 * next step), waiting for the pipeline after each: a stretch of time passing.
 */
export async function runFor(h: Pick<PipelineHarness, 'advance'>, ms: number, stepMs = 1_000): Promise<void> {
  for (let passed = 0; passed < ms; passed += stepMs) await h.advance(Math.min(stepMs, ms - passed));
}
