import type { ApiClient, ProjectKey, UserKey } from '../api/index.js';
import {
  type ChannelAccess,
  type ChannelRef,
  type CommandCore,
  createCommandCore,
  createDailyThreadSettings,
  createPacingSettings,
  createSettingsStore,
  createSubscriptionStore,
  type Locale,
  type NeutralMessage,
  type OperationalNote,
  type SubscriptionStore,
} from '../core/index.js';
import {
  type ChannelPoster,
  createNoticeRouter,
  createPacedRouter,
  type PacedRouter,
} from '../delivery/index.js';
import { chartPreview, digestPreview } from '../digest/index.js';
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type Lease,
  noticeKindOf,
  type PollOutcome,
} from '../engine/index.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { Random } from '../lib/random.js';
import { type KeyValueStore, namespaced } from '../lib/store.js';
import type { FundbotMetrics, Logger } from '../ops/index.js';

export interface WireOptions {
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: FundbotMetrics;
  readonly version: string;
  readonly projects: readonly {
    linkCaption: string;
    key: ProjectKey;
    milestones?: readonly number[];
    /** The project's own start-up key check: polling waits for it only (see startKeyChecks). */
    ready?: Promise<boolean>;
  }[];
  /** The optional User API key used as a change signal (engine `userKey`). */
  readonly userKey?: UserKey;
  readonly engineOptions?: EngineOptions;
  readonly defaultLocale: Locale;
  readonly digestTimeZone: string;
  /** Leases of the projects (a redis:// store: the replicas' balanced leases); default in-process. */
  readonly lease?: Lease;
  readonly replicaId?: string;
  /** Once-only delivery claims shared by the replicas; default in-process. */
  readonly claims?: Claims;
  /** Extra observer of finished polls (health); metrics are recorded here already. */
  readonly onPoll?: (poll: PollOutcome) => void;
  /** Process-wide causes /status shows (the store failing, API drift), as /healthz names them. */
  readonly operationalNotes?: () => readonly OperationalNote[];
}

/**
 * The parts every fundbot process has, whatever its chat platforms: the engine,
 * the command core and the notice router. Adapters are created after this (they
 * need the core) and hand their posters to {@link Wiring.connectPosters}; until
 * then the outbox keeps events (delivery fails and is retried), so nothing that
 * happens during start-up is lost.
 */
export interface Wiring {
  readonly engine: Engine;
  readonly core: CommandCore;
  readonly subscriptions: SubscriptionStore;
  /** A project's configured milestones, for the digest. */
  milestonesFor(project: string): readonly number[] | undefined;
  connectPosters(posters: readonly ChannelPoster[]): void;
  /** The adapter of a platform tells /subscribe whether the bot can post in a channel. */
  connectChannelAccess(platform: ChannelRef['platform'], access: ChannelAccess): void;
  /** Posts a digest (or any message) to a channel through the poster of its platform. */
  post(channel: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<void>;
}

export function wireFundbot(options: WireOptions): Wiring {
  const { store, clock, logger, metrics } = options;
  // The core's stores prefix their own keys (subscriptions/, settings/).
  const subscriptions = createSubscriptionStore(store, { clock });
  const settings = createSettingsStore(store);
  // Written by /pacing and /quiet, read by the paced router: one record per channel that set any.
  const pacing = createPacingSettings(store);
  // /thread writes it, the paced router reads it: one key per channel that turned it on.
  const dailyThreads = createDailyThreadSettings(store);
  let router: PacedRouter | undefined;
  const milestonesFor = (project: string) =>
    options.projects.find((p) => p.linkCaption === project)?.milestones;
  let posters: readonly ChannelPoster[] = [];
  const channelAccess = new Map<ChannelRef['platform'], ChannelAccess>();

  const engine = createEngine({
    api: options.api,
    store: namespaced(store, 'engine/'),
    clock,
    random: options.random,
    logger: logger.child({ component: 'engine' }),
    projects: options.projects,
    ...(options.userKey !== undefined ? { userKey: options.userKey } : {}),
    options: options.engineOptions ?? {},
    ...(options.lease !== undefined ? { lease: options.lease } : {}),
    ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}),
    onPoll: (poll) => {
      metrics.recordPoll({ project: poll.project, feed: poll.feed, result: poll.result }, poll.durationMs);
      options.onPoll?.(poll);
      // Batches whose window ended go out on the next poll: no timer of their own.
      void router?.flushDue().catch((error) => logger.warn({ err: String(error) }, 'batch flush failed'));
    },
    deliver: async (event) => {
      if (!router) throw new Error('no chat adapter is connected yet: the event stays in the outbox');
      await router.deliver(event);
    },
  });

  const core = instrumentCore(
    metrics,
    clock,
    createCommandCore({
      readModel: engine.readModel,
      subscriptions,
      settings,
      clock,
      version: options.version,
      defaultLocale: options.defaultLocale,
      timeZone: options.digestTimeZone,
      digestPreview: digestPreview(engine.readModel, clock, options.digestTimeZone, milestonesFor),
      fundingChart: chartPreview(engine.readModel, clock, options.digestTimeZone, milestonesFor),
      // A platform with no adapter connected (the console) has nothing to check: it can always print.
      pacing,
      channelAccess: {
        canPost: (channel) =>
          channelAccess.get(channel.platform)?.canPost(channel) ?? Promise.resolve({ ok: true }),
      },
      dailyThreads,
      logger: logger.child({ component: 'core' }),
      ...(options.operationalNotes ? { operationalNotes: options.operationalNotes } : {}),
    }),
  );

  const posterFor = (channel: ChannelRef): ChannelPoster => {
    const poster = posters.find((p) => p.platform === channel.platform);
    if (!poster)
      throw new Error(`no ${channel.platform} adapter is running, so this channel cannot be reached`);
    return poster;
  };

  return {
    engine,
    core,
    subscriptions,
    milestonesFor,
    connectChannelAccess(platform, access) {
      channelAccess.set(platform, access);
    },
    connectPosters(connected) {
      posters = connected.map((poster) => instrumentPoster(poster, metrics));
      const deliveries = namespaced(store, 'deliveries/');
      const noticeRouter = createNoticeRouter({
        core,
        subscriptions,
        posters,
        store: deliveries,
        ...(options.claims !== undefined ? { claims: options.claims } : {}),
        logger: logger.child({ component: 'notices' }),
        clock,
        // Latency of each posted notice: from the platform's timestamp to the post.
        onPosted: (event, channel) =>
          metrics.recordNotice(
            { kind: noticeKindOf(event), platform: channel.platform },
            clock.now() - event.occurredAt,
          ),
      });
      router = createPacedRouter({
        router: noticeRouter,
        core,
        subscriptions,
        posters,
        store: deliveries,
        settings: pacing,
        clock,
        logger: logger.child({ component: 'pacing' }),
        dailyThread: {
          settings: dailyThreads,
          // The day of the daily thread is the digest's day.
          timeZone: options.digestTimeZone,
          // The bar's goal from the engine's cache (the project is re-read far more often than 6 h).
          goalOf: async (project) =>
            (await engine.readModel.project(project, 6 * 3_600_000)).value.funding_threshold,
        },
      });
    },
    post: async (channel, message, idempotencyKey) => {
      await posterFor(channel).post(channel, message, idempotencyKey);
    },
  };
}

/** Counts delivery errors per platform without changing what the poster throws or answers. */
function instrumentPoster(poster: ChannelPoster, metrics: FundbotMetrics): ChannelPoster {
  return {
    ...poster,
    platform: poster.platform,
    ...(poster.findPosted ? { findPosted: poster.findPosted.bind(poster) } : {}),
    ...(poster.edit ? { edit: poster.edit.bind(poster) } : {}),
    ...(poster.startThread ? { startThread: poster.startThread.bind(poster) } : {}),
    async post(channel, message, idempotencyKey, thread) {
      try {
        return await poster.post(channel, message, idempotencyKey, thread);
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'unknown';
        metrics.recordDeliveryError({ platform: poster.platform, reason });
        throw error;
      }
    },
  };
}

/** Times every command for the metrics endpoint; a private error reply counts as refused. */
function instrumentCore(metrics: FundbotMetrics, clock: Clock, core: CommandCore): CommandCore {
  return {
    autocomplete: (...args) => core.autocomplete(...args),
    renderNotice: (...args) => core.renderNotice(...args),
    localeFor: (channel) => core.localeFor(channel),
    timeZoneFor: (channel) => core.timeZoneFor(channel),
    async execute(invocation) {
      const started = clock.now();
      const labels = { command: invocation.name, platform: invocation.context.channel.platform };
      try {
        const message = await core.execute(invocation);
        const outcome = message.private && message.tone === 'error' ? 'refused' : 'ok';
        metrics.recordCommand({ ...labels, outcome }, clock.now() - started);
        return message;
      } catch (error) {
        metrics.recordCommand({ ...labels, outcome: 'error' }, clock.now() - started);
        throw error;
      }
    },
  };
}
