import type { ApiClient, UserKey } from '../api/index.js';
import {
  type CampaignSettings,
  type ChannelAccess,
  type ChannelAccessStates,
  type ChannelRef,
  type CommandCore,
  createCampaignSettings,
  createChannelAccessStates,
  createCommandCore,
  createDailyThreadSettings,
  createLowStockSettings,
  createNoticeRulesSettings,
  createPacingSettings,
  createRewardWatchStore,
  createSettingsStore,
  createSubscriptionStore,
  type HostedProjects,
  type Locale,
  type OperationalNote,
  rewardWatchMessage,
  type SubscriptionStore,
} from '../core/index.js';
import {
  type ChannelPoster,
  createDelivery,
  createRewardWatchDms,
  type Delivery,
  type DeliveryObserver,
  type DirectMessenger,
  type RewardWatchDms,
} from '../delivery/index.js';
import {
  chartPreview,
  createCampaignCheckStore,
  createRollCallJournal,
  digestPreview,
  type RollCallJournal,
  type SettingsStamp,
} from '../digest/index.js';
import { isNoticeKind } from '../domain/events.js';
import type { GoalPaceOptions } from '../domain/goal-pace.js';
import {
  createEngine,
  type Engine,
  type EngineOptions,
  type EngineProject,
  type Lease,
  type PollOutcome,
} from '../engine/index.js';
import { withChangeStamp } from '../lib/change-stamp.js';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import { countedStore } from '../lib/counted-store.js';
import type { Random } from '../lib/random.js';
import { type KeyValueStore, namespaced } from '../lib/store.js';
import type { FundbotMetrics, Logger } from '../ops/index.js';
import { type ForgottenData, forgetWorkspace } from './forget-workspace.js';
import { type ProjectStore, projectStores } from './project-stores.js';

export interface WireOptions {
  readonly api: ApiClient;
  readonly store: KeyValueStore;
  readonly clock: Clock;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: FundbotMetrics;
  readonly version: string;
  /** The configured projects; `ready`, `checkedRead` and `rejectedAtCheck` come from their start-up key checks. */
  readonly projects: readonly EngineProject[];
  /** The optional User API key used as a change signal (engine `userKey`). */
  readonly userKey?: UserKey;
  /** Replicas: whether this replica reads the User key now (engine `userKeyReader`). */
  readonly userKeyReader?: (() => boolean) | undefined;
  readonly engineOptions?: EngineOptions;
  readonly defaultLocale: Locale;
  readonly digestTimeZone: string;
  /** Leases of the projects (a redis:// store: the replicas' balanced leases); default in-process. */
  readonly lease?: Lease;
  readonly replicaId?: string;
  /** Once-only delivery claims shared by the replicas; default in-process. */
  readonly claims?: Claims;
  /** The live replicas posting into the channels (the lease balancer's count); default 1. */
  readonly postingReplicas?: () => number;
  /** Extra observer of finished polls (health); metrics are recorded here already. */
  readonly onPoll?: (poll: PollOutcome) => void;
  /** Told what the delivery pipeline does, beside the metrics (the digest's health). */
  readonly deliveryObserver?: DeliveryObserver;
  /** Process-wide causes /status shows (the store failing, API drift), as /healthz names them. */
  readonly operationalNotes?: () => readonly OperationalNote[];
  /**
   * Hosted fundbot: builds the connected-projects port on the engine (the commands' `hosted`); a disconnected
   * project is forgotten from every per-project store (project-stores.ts).
   */
  readonly hosted?: (engine: Engine, projectStores: readonly ProjectStore[]) => HostedProjects;
  /** The goal-pace alerts' window and minimum (config `campaign`), for /deadline's answer. */
  readonly goalPace?: GoalPaceOptions;
}

/**
 * The parts every fundbot process has, whatever its chat platforms: the engine, the
 * command core and the delivery pipeline between them. The pipeline is built here,
 * before the adapters; each adapter registers its poster with it once it exists
 * (`registerAdapter`). Until then the outbox keeps events, so nothing that happens
 * during start-up is lost.
 */
export interface Wiring {
  readonly engine: Engine;
  readonly core: CommandCore;
  readonly subscriptions: SubscriptionStore;
  readonly delivery: Delivery;
  /** Which channels fundbot cannot post in, as the pipeline found them (/healthz on replicas reads them too). */
  readonly channelAccessStates: ChannelAccessStates;
  /** Removes a workspace's subscriptions, settings and markers (its uninstall; see forget-workspace.ts). */
  forgetWorkspace(workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>): Promise<ForgottenData>;
  /** A project's configured milestones, for the digest. */
  milestonesFor(project: string): readonly number[] | undefined;
  /** An adapter's poster (notices go out through it) and channel check (/subscribe, re-checks). */
  registerAdapter(poster: ChannelPoster, access: ChannelAccess, directMessenger?: DirectMessenger): void;
  /** /deadline's and /rollcall's settings, read by the campaign checks (src/digest/campaign-watch.ts). */
  readonly campaign: CampaignSettings;
  /** Every supporter the outbox offered, for the roll-calls; and the checks' own state, under `campaign/`. */
  readonly rollCallJournal: RollCallJournal;
  readonly campaignStore: KeyValueStore;
  /** The settings' change stamp: readers that keep settings (the campaign checks) drop them when it moves. */
  readonly settingsStamp: SettingsStamp;
  /** Every store that keeps one project's data, forgotten together when a project is disconnected. */
  readonly projectStores: readonly ProjectStore[];
}

/** Where settings writes leave their change stamp (see src/lib/change-stamp.ts). */
export const settingsStampKey = 'settings/stamp';

export function wireFundbot(options: WireOptions): Wiring {
  const { store, clock, logger, metrics } = options;
  // Every settings write stamps the store: the pipeline caches settings and re-reads them only after a change.
  const settingsStore = withChangeStamp(
    store,
    settingsStampKey,
    () => `${clock.now().toString(36)}-${Math.floor(options.random.next() * 2 ** 32).toString(36)}`,
  );
  // The core's stores prefix their own keys (subscriptions/, settings/).
  const subscriptions = createSubscriptionStore(settingsStore, { clock });
  const settings = createSettingsStore(settingsStore);
  // Written by /pacing and /quiet, read by the pipeline: one record per channel that set any.
  const pacing = createPacingSettings(settingsStore);
  // /thread writes it, the pipeline reads it: one key per channel that turned it on.
  const dailyThreads = createDailyThreadSettings(settingsStore);
  // /lowstock writes it, the pipeline reads it: one key per channel that set a threshold.
  const lowStock = createLowStockSettings(settingsStore);
  // /ping and /filter write it, the pipeline reads it: one key per channel with pings or filters.
  const noticeRules = createNoticeRulesSettings(settingsStore);
  // Written by the pipeline when a platform refuses a channel; shown by /subscriptions, /status, /healthz.
  const access = createChannelAccessStates(settingsStore);
  // Issue 32: /deadline and /rollcall write them, the campaign checks read them; the journal feeds the roll-calls.
  const campaign = createCampaignSettings(settingsStore);
  const campaignStore = namespaced(store, 'campaign/');
  const rollCallJournal = createRollCallJournal(campaignStore);
  // Issue 32 item 3c: /watch writes it, the restock's direct messages read it: one record per workspace with watches.
  const rewardWatches = createRewardWatchStore(settingsStore);
  const milestonesFor = (project: string) =>
    options.projects.find((p) => p.linkCaption === project)?.milestones;
  const channelAccess = new Map<ChannelRef['platform'], ChannelAccess>();
  // The engine offers its outbox to the pipeline, which needs the core, which reads the engine: bound below.
  let delivery: Delivery | undefined;
  // The restock's direct messages need the core's renderer: bound below, like the pipeline.
  let rewardWatchDms: RewardWatchDms = { register() {}, deliver: async () => new Set() };

  const engine = createEngine({
    api: options.api,
    store: namespaced(store, 'engine/'),
    clock,
    random: options.random,
    logger: logger.child({ component: 'engine' }),
    projects: options.projects,
    ...(options.userKey !== undefined ? { userKey: options.userKey } : {}),
    ...(options.userKeyReader !== undefined ? { userKeyReader: options.userKeyReader } : {}),
    options: options.engineOptions ?? {},
    ...(options.lease !== undefined ? { lease: options.lease } : {}),
    ...(options.replicaId !== undefined ? { replicaId: options.replicaId } : {}),
    onPoll: (poll) => {
      metrics.recordPoll({ project: poll.project, feed: poll.feed, result: poll.result }, poll.durationMs);
      options.onPoll?.(poll);
    },
    sink: {
      offer: async (project, events, adopting) => {
        // The roll-call's journal must not hold up the notices: a failed write is logged, the next offer repeats it.
        await rollCallJournal
          .record(project, events)
          .catch((error: unknown) => logger.warn({ project, err: error }, 'roll-call journal not written'));
        // A restock whose direct messages are not all out stays in the outbox (the pipeline dedupes it).
        const dmsPending = await rewardWatchDms.deliver(project, events).catch((error: unknown) => {
          logger.warn(
            { project, err: error },
            'reward watch: direct messages not sent, tried again at the next run',
          );
          return new Set(events.filter((e) => e.type === 'reward-restocked').map((e) => e.id));
        });
        const done = delivery ? await delivery.sink.offer(project, events, adopting) : [];
        return done.filter((id) => !dmsPending.has(id));
      },
    },
  });

  // What a disconnected project leaves: its state, its supporters' names in the journal, its checks' state.
  const perProject = projectStores({
    engine,
    rollCallJournal,
    campaignChecks: createCampaignCheckStore(campaignStore),
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
      channelAccessStates: access,
      dailyThreads,
      lowStock,
      campaign,
      ...(options.goalPace ? { goalPace: options.goalPace } : {}),
      noticeRules,
      rewardWatches,
      // The delivery trace (/notices, /why): the pipeline's, bound once it exists below.
      recentNotices: async (channel, limit) => (delivery ? delivery.recentNotices(channel, limit) : []),
      logger: logger.child({ component: 'core' }),
      ...(options.operationalNotes ? { operationalNotes: options.operationalNotes } : {}),
      ...(options.hosted ? { hosted: options.hosted(engine, perProject) } : {}),
    }),
  );

  // What the pipeline reads and writes is counted where it lands: its cost per notice in /metrics.
  const counted = (view: KeyValueStore) =>
    countedStore(view, (operation) => metrics.recordDeliveryStoreOperation(operation));
  const pipeline = createDelivery({
    store: counted(namespaced(store, 'deliveries/')),
    settingsStore: counted(settingsStore),
    settingsStampKey,
    core,
    subscriptions,
    pacing,
    dailyThreads,
    lowStock,
    noticeRules,
    access,
    clock,
    random: options.random,
    logger: logger.child({ component: 'delivery' }),
    ...(options.claims !== undefined ? { claims: options.claims } : {}),
    ...(options.postingReplicas !== undefined ? { postingReplicas: options.postingReplicas } : {}),
    // The day of the daily thread is the digest's day.
    timeZone: options.digestTimeZone,
    // The bar's goal from the engine's cache (the project is re-read far more often than 6 h).
    goalOf: async (project) =>
      (await engine.readModel.project(project, 6 * 3_600_000)).value.funding_threshold,
    // A daily thread parent's or a batch's count and total when its notices carried none: the engine's last read.
    figuresOf: async (project) => {
      const { value, fetchedAt } = await engine.readModel.project(project, 6 * 3_600_000);
      return {
        supporterCount: value.supporter_count,
        fundingTotal: value.current_funding,
        readAt: fetchedAt,
      };
    },
    observer: {
      // Latency of each posted notice: from the platform's timestamp to the post.
      posted: (info) => {
        if (isNoticeKind(info.kind))
          metrics.recordNotice({ kind: info.kind, platform: info.channel.platform }, info.latencyMs);
        options.deliveryObserver?.posted?.(info);
      },
      failed: (info) => {
        metrics.recordDeliveryError({ platform: info.channel.platform, reason: info.how });
        options.deliveryObserver?.failed?.(info);
      },
      abandoned: (info) => {
        metrics.recordDeliveryError({ platform: info.channel.platform, reason: 'abandoned' });
        options.deliveryObserver?.abandoned?.(info);
      },
    },
  });
  delivery = pipeline;
  rewardWatchDms = createRewardWatchDms({
    watches: rewardWatches,
    store: namespaced(store, 'deliveries/'),
    // The project's link from the engine's cache (no request of its own); without it, the notice alone.
    render: async (event, channel) =>
      rewardWatchMessage(
        event,
        await core.localeFor(channel),
        await core.timeZoneFor(channel),
        await engine.readModel.project(event.project, 6 * 3_600_000).then(
          (read) => read.value,
          () => undefined,
        ),
      ),
    logger: logger.child({ component: 'reward-watch' }),
  });

  return {
    engine,
    core,
    subscriptions,
    delivery: pipeline,
    channelAccessStates: access,
    milestonesFor,
    campaign,
    rollCallJournal,
    campaignStore,
    settingsStamp: { store: settingsStore, key: settingsStampKey },
    projectStores: perProject,
    forgetWorkspace: (workspace) =>
      forgetWorkspace({
        settingsStore,
        deliveriesStore: namespaced(store, 'deliveries/'),
        subscriptions,
        access,
        rewardWatches,
        workspace,
      }),
    registerAdapter(poster, channelCheck, directMessenger) {
      rewardWatchDms.register(poster.platform, directMessenger);
      channelAccess.set(poster.platform, channelCheck);
      pipeline.registerPoster(poster, channelCheck);
    },
  };
}

/** Times every command for the metrics endpoint; a private error reply counts as refused. */
function instrumentCore(metrics: FundbotMetrics, clock: Clock, core: CommandCore): CommandCore {
  return {
    autocomplete: (...args) => core.autocomplete(...args),
    renderNotice: (...args) => core.renderNotice(...args),
    localeFor: (channel) => core.localeFor(channel),
    ...(core.overview ? { overview: core.overview.bind(core) } : {}),
    ...(core.noticesOverview ? { noticesOverview: core.noticesOverview.bind(core) } : {}),
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
