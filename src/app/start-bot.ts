import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createApiClient } from '../api/index.js';
import { envVars, type FundbotConfig } from '../config/index.js';
import { type OperationalNote, subscriptionIndexKey } from '../core/index.js';
import type { DeliveryStatus } from '../delivery/index.js';
import { createDigestScheduler, type DigestScheduler } from '../digest/index.js';
import { type EngineOptions, type ProjectPollingStatus, stateKeys } from '../engine/index.js';
import { systemClock } from '../lib/clock.js';
import { systemRandom } from '../lib/random.js';
import { observedStore, openStore } from '../lib/store.js';
import { startStoreSweep } from '../lib/store-sweep.js';
import {
  createHealthMonitor,
  createMetrics,
  createStoreWatch,
  describeStoreTarget,
  type Logger,
  type OpsServer,
  type ShutdownStep,
  type StoreMarker,
  startOpsServer,
  startStoreMarker,
  startStoreProbe,
} from '../ops/index.js';
import { createChatAdapters, loadChatModules } from './chat-adapters.js';
import { digestHealthObserver } from './digest-health.js';
import { type EarlyFleetJoin, startFleetJoinEarly } from './early-fleet-join.js';
import { engineOptionsFromConfig } from './engine-options-from-config.js';
import { healthWithFleet } from './fleet-health.js';
import { prepareHosting } from './hosted/start-hosted.js';
import { platformStartError } from './platform-start-error.js';
import { KeyRing, withReplaceableKeys } from './replaceable-keys.js';
import { goalPaceOptions, startCampaignWatch } from './start-campaign-watch.js';
import { startKeyChecks, startupReport } from './start-key-checks.js';
import type { StartedReplicas } from './start-replicas.js';
import { startUserKeyReader } from './user-key-reader.js';
import { type ApiDriftWatch, watchApiDrift } from './watch-api-drift.js';
import { watchKeyFiles } from './watch-key-files.js';
import { type PollingCeilingWatch, watchPollingCeiling } from './watch-polling-ceiling.js';
import { wireFundbot } from './wire-fundbot.js';

export interface RunningBot {
  /** In the order the graceful shutdown runs them. */
  readonly shutdownSteps: readonly ShutdownStep[];
  /** Base URL of the health and metrics server, when it runs. */
  readonly opsUrl: string | undefined;
  /** A line for `/status` when the platform's API description changed (see watchApiDrift), else undefined. */
  apiDriftStatus(): string | undefined;
}

/** Where the platforms are, and engine tuning: injected so tests run the real bot against local fakes. */
export interface BotOverrides {
  readonly discordRestApiUrl?: string;
  readonly slackApiUrl?: string;
  /** How long a Discord command may run before it is deferred (default 2 s; tests force the deferral with 0). */
  readonly discordDeferAfterMs?: number;
  readonly engineOptions?: EngineOptions;
  /** How often key files are checked for a change (default 5 s). */
  readonly keyFileIntervalMs?: number;
}

/**
 * The real bot: one process serving the configured projects on Discord and/or
 * Slack, with durable state in the configured store.
 *
 * API cost at start: 1 request per project for the key check (64 projects at once, each project's first poll
 * waits only for its own check); then the engine's budget planner decides.
 */
export async function startBot(
  config: FundbotConfig,
  logger: Logger,
  version: string,
  overrides: BotOverrides = {},
  /** On a redis:// store, the fleet join src/main.ts started before loading the bot (early-fleet-join.ts). */
  earlyJoin?: EarlyFleetJoin,
): Promise<RunningBot> {
  const clock = systemClock;
  const chatModules = loadChatModules(config); // while the store opens and the fleet joins (idle waits)
  const storeUrl = config.store.url;
  // SQLite creates the file but not its directory.
  if (storeUrl.startsWith('sqlite://'))
    mkdirSync(dirname(storeUrl.slice('sqlite://'.length)), { recursive: true });
  // The configured projects not found unreadable by their key check, and the projects connected from chat (hosted).
  let enabledProjects: () => readonly string[] = () => [];
  let hostedProjects: () => readonly string[] = () => [];
  const watchedProjects = () => [...enabledProjects(), ...hostedProjects()];
  let engineStatus: () => readonly ProjectPollingStatus[] = () => [];
  let deliveryStatus: () => DeliveryStatus = () => ({ cannotPost: [], pending: 0 });
  let drift: ApiDriftWatch | undefined;
  let ceiling: PollingCeilingWatch | undefined;
  // Set on a redis:// store: this replica then polls (and health expects polls of) the projects it holds.
  let replicas: StartedReplicas | undefined;
  let marker: StoreMarker | undefined;
  // What this process polls (and health expects polls of, and digests): on replicas the watched projects it holds.
  const polledHere = () => {
    const all = watchedProjects();
    if (replicas === undefined) return all;
    const watched = new Set(all);
    return replicas.held().filter((p) => watched.has(p));
  };
  const health = createHealthMonitor({
    clock,
    projects: polledHere,
    replica: () => (replicas ? { id: replicas.replicaId, holds: replicas.held() } : undefined),
    storeName: describeStoreTarget(storeUrl).name,
    // Bound late: the engine is wired after health (health must see the store from the first operation).
    paused: () => new Map(engineStatus().flatMap((s) => (s.paused ? [[s.project, s.paused] as const] : []))),
    delivery: () => deliveryStatus(),
    // The store found empty while its marker says it held data (ops/store-marker.ts).
    extraChecks: () => ({ ...(marker ? { 'store-data': marker.check() } : {}), ...ceiling?.checks() }),
  });
  const storeWatch = createStoreWatch({
    clock,
    logger,
    health,
    storeUrl,
    storeSetting: `store.url or ${envVars.store}`,
  });
  // Every operation is bounded (5 s) and reported: /healthz and the error log are built on it.
  const store = observedStore(await openStore(storeUrl), { clock, onOutcome: storeWatch.observe });
  // Before anything writes: a store that comes back empty while its marker says it held data is said out loud.
  marker = await startStoreMarker({
    storeUrl,
    store,
    clock,
    logger,
    heldKeys: () =>
      config.projects.flatMap((p) => [
        // The engine's keys live under `engine/` (wireFundbot namespaces its store).
        { project: p.linkCaption, key: `engine/${stateKeys.head(p.linkCaption)}` },
        { project: p.linkCaption, key: subscriptionIndexKey(p.linkCaption) },
      ]),
  });
  // On Redis, the replica's fleet join: the one src/main.ts started before loading the bot, or (a bot started in
  // process) one started now. Its metrics are on the bot's registry.
  const fleetJoin = earlyJoin ?? startFleetJoinEarly(config, logger);
  const registry = fleetJoin?.registry ?? new Registry();
  const metrics = createMetrics(registry);
  // Process metrics (CPU, memory, event loop lag, handles) beside fundbot's own.
  collectDefaultMetrics({ register: registry });
  const api = createApiClient({
    baseUrl: config.api.baseUrl,
    timeoutMs: config.api.timeoutMs,
    // A slow GET gets a copy (bench `scale`: 1% of requests held 5 s, first poll of 1,000 projects 17.6 s -> 6-9 s).
    ...(config.api.hedgeAfterMs > 0 ? { hedge: { afterMs: config.api.hedgeAfterMs } } : {}),
    clock,
    random: systemRandom,
    userAgent: `fundbot/${version}`,
    // The engine's scheduler owns Retry-After (no request during the wait), so the client must not sit on a 429.
    maxRateLimitRetries: 0,
    onResponse: (info) => metrics.recordApiResponse(info),
  });

  const projects = config.projects;
  // Looked up at every poll: a search of 3,000 configured projects per poll was linear.
  const keyOf = new Map(projects.map((p) => [p.linkCaption, p.apiKey]));
  enabledProjects = () => projects.map((p) => p.linkCaption);
  // On Redis: leases spread the projects over the replicas; delivery claims keep notices once-only.
  replicas = await fleetJoin?.replicas;
  fleetJoin?.bind({ projects: watchedProjects, onStoreOutcome: storeWatch.observe });
  // Key checks run while everything else starts (each first poll waits only for its own). A rejected key pauses its
  // project (reason in /healthz and /status, retried: src/engine/key-pause.ts); only projects no key can read (not
  // found, plan below Pro) are dropped. A replica checks the projects it holds, as it takes them (KeyCheckStart).
  const checks = startKeyChecks({ api, projects, logger, start: replicas ? 'when-held' : 'all' });
  enabledProjects = () => projects.map((p) => p.linkCaption).filter((lc) => !checks.isDisabled(lc));
  replicas?.whenAcquired((acquired) => checks.check(acquired));
  // Notices a store that went away (or came back) while nothing else touches it: one GET per 10 s.
  const storeProbe = startStoreProbe({ store, clock, lastWriteAt: storeWatch.lastWriteAt });
  // SQLite keeps expired rows (delivery records after 14 days) until read: swept hourly, bounded.
  const storeSweep = startStoreSweep({
    store,
    clock,
    onSweep: ({ deleted, scanned }) => {
      if (deleted > 0) logger.info({ deleted, scanned }, 'deleted expired store values');
    },
    onError: (error) => logger.warn({ err: String(error) }, 'store sweep failed: the next hour tries again'),
  });
  // A key file replaced while running is swapped in through this ring (see watchKeyFiles).
  const keys = new KeyRing();
  const engineApi = withReplaceableKeys(api, keys);
  // Hosted fundbot: projects connected from chat. A wrong FUNDBOT_ENCRYPTION_KEY refuses to start here.
  const hosting = prepareHosting({ config, store, api: engineApi, clock, logger, replicas });
  await hosting.verifyKey();
  hostedProjects = () => hosting.linkCaptions();
  // On replicas one of them reads the User key for the fleet (its lease); the others follow its reads.
  const userKeyReader = startUserKeyReader({ replicas, userKey: config.api.userKey, clock, logger });
  const wiring = wireFundbot({
    api: engineApi,
    store,
    clock,
    random: systemRandom,
    // Each feed's first poll checks its scope and warns once (the key check reads only the project).
    logger,
    metrics,
    version,
    projects: projects.map((p) => ({
      linkCaption: p.linkCaption,
      key: p.apiKey,
      milestones: p.milestones,
      ready: checks.ready(p.linkCaption),
      checkedRead: () => checks.takeCheckedRead(p.linkCaption),
      rejectedAtCheck: () => checks.takeRejection(p.linkCaption),
      keySource: {
        kind: 'configured' as const,
        variable: p.apiKeyFile !== undefined ? `${p.apiKeyEnv}_FILE` : p.apiKeyEnv,
        watchedFile: p.apiKeyFile !== undefined,
      },
    })),
    ...(config.api.userKey !== undefined ? { userKey: config.api.userKey } : {}),
    userKeyReader: userKeyReader.reads,
    ...(replicas
      ? {
          lease: replicas.engineLease,
          replicaId: replicas.replicaId,
          claims: replicas.claims,
          postingReplicas: () => replicas.liveReplicas(),
        }
      : {}),
    engineOptions: engineOptionsFromConfig(config.engine, replicas, overrides.engineOptions),
    defaultLocale: config.locale,
    digestTimeZone: config.digest.timeZone,
    goalPace: goalPaceOptions(config.campaign),
    ...(hosting.factory ? { hosted: hosting.factory } : {}),
    // /status names what /healthz names; drift is bound late (it is watched once the engine runs).
    operationalNotes: () => {
      const notes: OperationalNote[] = [];
      const store = health.report().checks.store;
      if (store && !store.ok) notes.push({ cause: 'store-failing', detail: store.detail });
      const emptied = marker?.alarm();
      if (emptied !== undefined) notes.push({ cause: 'store-emptied', detail: emptied });
      const driftLine = drift?.statusLine();
      if (driftLine !== undefined) notes.push({ cause: 'api-drift', detail: driftLine });
      return [...notes, ...(ceiling?.notes() ?? [])];
    },
    deliveryObserver: digestHealthObserver(health),
    onPoll: (poll) => {
      health.recordPoll(poll);
      const key = keyOf.get(poll.project);
      const budget = key && engineApi.budget(key);
      if (budget) metrics.setApiBudget(poll.project, budget);
    },
  });

  const adapters = await createChatAdapters({
    config,
    modules: chatModules,
    core: wiring.core,
    subscriptions: wiring.subscriptions,
    forgetWorkspace: async (workspace) => ({
      ...(await wiring.forgetWorkspace(workspace)),
      projects: await hosting.forgetWorkspace(workspace),
    }),
    store,
    logger,
    clock,
    replicas,
    registry,
    discordApiUrl:
      overrides.discordRestApiUrl ?? (config.discord.enabled ? config.discord.apiUrl : undefined),
    slackApiUrl: overrides.slackApiUrl ?? (config.slack.enabled ? config.slack.apiUrl : undefined),
    onAccessChanged: (scope) => wiring.delivery.accessMayHaveChanged(scope),
    ownMessages: wiring.delivery,
    ...(overrides.discordDeferAfterMs !== undefined
      ? { discordDeferAfterMs: overrides.discordDeferAfterMs }
      : {}),
  });
  engineStatus = () => wiring.engine.status();
  ceiling = watchPollingCeiling({ ceiling: () => wiring.engine.ceiling(), clock, logger, registry });
  // A project the balancer just took over (its holder died or left) is polled at once, not a third of a TTL later.
  replicas?.whenAcquired((projects) => {
    for (const project of projects) wiring.engine.leaseGranted(project);
  });
  for (const a of adapters) wiring.registerAdapter(a.poster, a.channelAccess, a.directMessenger);
  deliveryStatus = () => wiring.delivery.status();
  await wiring.delivery.start();

  let ops: OpsServer | undefined;
  if (config.http.enabled) {
    ops = await startOpsServer({
      host: config.http.host,
      port: config.http.port,
      registry,
      logger,
      health: healthWithFleet(
        () => health.report(),
        replicas && {
          readModel: wiring.engine.readModel,
          projects: watchedProjects,
          clock,
          access: wiring.channelAccessStates,
        },
      ),
    });
  }

  for (const adapter of adapters) {
    try {
      await adapter.start();
    } catch (error) {
      // Leave nothing open behind a failed start: the caller (or a test) may go on living.
      for (const a of adapters) await a.stop().catch(() => undefined);
      storeProbe.stop();
      storeSweep.stop();
      await marker?.stop();
      await replicas?.stop();
      await Promise.allSettled([api.close(), store.close(), ops?.close(), replicas?.close()]);
      throw platformStartError(adapter.name, error);
    }
    logger.info({ adapter: adapter.name }, 'chat adapter connected');
  }
  await wiring.engine.start();
  await hosting.start();
  // /openapi.json at start and once a day: one request, no key budget.
  drift = watchApiDrift({ api, store, clock, logger, registry });
  const keyFiles = watchKeyFiles({
    projects,
    ring: keys,
    api,
    logger,
    onReplaced: (linkCaption) => wiring.engine.keyReplaced(linkCaption),
    ...(overrides.keyFileIntervalMs !== undefined ? { intervalMs: overrides.keyFileIntervalMs } : {}),
  });

  let digest: DigestScheduler | undefined;
  if (config.digest.enabled) {
    digest = createDigestScheduler({
      readModel: wiring.engine.readModel,
      subscriptions: wiring.subscriptions,
      localeFor: (channel) => wiring.core.localeFor(channel),
      post: (request) => wiring.delivery.postScheduled(request),
      clock,
      time: config.digest.time,
      timeZone: config.digest.timeZone,
      // On replicas each digests the projects it holds (the ledger and claims keep it once regardless).
      projects: polledHere,
      milestonesFor: wiring.milestonesFor,
      logger,
    });
    digest.start();
    void digest
      .sendMissedOnStart()
      .catch((error: unknown) => logger.error({ err: error }, 'missed digest check failed'));
  }
  const campaign = startCampaignWatch(wiring, config.campaign, { clock, logger, projects: polledHere });
  const shutdownSteps: ShutdownStep[] = [
    {
      name: 'stop the digest schedule, the key file and API drift watches',
      stop: async () => {
        keyFiles.stop();
        hosting.stop();
        await userKeyReader.stop();
        drift?.stop();
        ceiling?.stop();
        digest?.stop();
        await campaign.stop();
      },
    },
    { name: 'stop pollers after the cycle in flight', stop: () => wiring.engine.stop() },
    // Posts in flight finish (held batches are in the store: they go out after the restart) while the adapters can post.
    { name: 'finish the posts in flight', stop: () => wiring.delivery.stop(3_000) },
    // The leases go back at once, so the other replicas take these projects over without waiting a TTL.
    { name: 'give the project leases back', stop: async () => replicas?.stop() },
    ...adapters.map((a) => ({ name: `stop ${a.name} (commands in flight finish)`, stop: () => a.stop() })),
    { name: 'close the API client', stop: () => api.close() },
    {
      name: 'flush and close the store',
      stop: async () => {
        storeProbe.stop();
        storeSweep.stop();
        await marker?.stop();
        await Promise.all([store.close(), replicas?.close()]);
      },
    },
    { name: 'close the health server', stop: async () => ops?.close() },
  ];
  const report = await startupReport(
    checks,
    projects.map((p) => p.linkCaption),
  );
  if (report.projects.length > 0 && report.enabled.length + report.paused.length === 0) {
    for (const step of shutdownSteps) await step.stop().catch(() => undefined);
    throw new Error(
      'no configured project can be read (see the warnings above): fix projects[].linkCaption or the plan, and start again',
    );
  }
  logger.info(
    // `version` is on every line already (the logger's base): a second one would make the JSON invalid for strict parsers.
    { projects: enabledProjects(), adapters: adapters.map((a) => a.name) },
    'fundbot is running',
  );

  return {
    opsUrl: ops?.url,
    apiDriftStatus: () => drift?.statusLine(),
    shutdownSteps,
  };
}
