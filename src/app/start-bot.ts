import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Registry } from 'prom-client';
import { createDiscordAdapter } from '../adapters/discord/index.js';
import { createSlackAdapter } from '../adapters/slack/index.js';
import { createApiClient } from '../api/index.js';
import { checkProjectKeys, type FundbotConfig } from '../config/index.js';
import type { ChannelAccess, ChannelPoster } from '../core/index.js';
import { createDigestScheduler, type DigestScheduler } from '../digest/index.js';
import type { EngineOptions } from '../engine/index.js';
import { systemClock } from '../lib/clock.js';
import { systemRandom } from '../lib/random.js';
import { openStore } from '../lib/store.js';
import {
  createHealthMonitor,
  createMetrics,
  type Logger,
  type OpsServer,
  type ShutdownStep,
  startOpsServer,
} from '../ops/index.js';
import { wireFundbot } from './wire-fundbot.js';

export interface RunningBot {
  /** In the order the graceful shutdown runs them. */
  readonly shutdownSteps: readonly ShutdownStep[];
  /** Base URL of the health and metrics server, when it runs. */
  readonly opsUrl: string | undefined;
}

/** Where the platforms are, and engine tuning: injected so tests run the real bot against local fakes. */
export interface BotOverrides {
  readonly discordRestApiUrl?: string;
  readonly slackApiUrl?: string;
  readonly engineOptions?: EngineOptions;
}

/**
 * The real bot: one process serving the configured projects on Discord and/or
 * Slack, with durable state in the configured store.
 *
 * API cost at start: at most 5 requests per project for the key check; then
 * the engine's budget planner decides.
 */
export async function startBot(
  config: FundbotConfig,
  logger: Logger,
  version: string,
  overrides: BotOverrides = {},
): Promise<RunningBot> {
  const clock = systemClock;
  const storeUrl = config.store.url;
  if (storeUrl.startsWith('sqlite://')) {
    // SQLite creates the file but not its directory.
    mkdirSync(dirname(storeUrl.slice('sqlite://'.length)), { recursive: true });
  }
  const store = await openStore(storeUrl);
  const registry = new Registry();
  const metrics = createMetrics(registry);
  const api = createApiClient({
    baseUrl: config.api.baseUrl,
    timeoutMs: config.api.timeoutMs,
    clock,
    random: systemRandom,
    userAgent: `fundbot/${version}`,
    // The engine's scheduler owns Retry-After (no request during the wait), so the client must not sit on a 429.
    maxRateLimitRetries: 0,
    onResponse: (info) => metrics.recordApiResponse(info),
  });

  const report = await checkProjectKeys({
    api,
    projects: config.projects.map((p) => ({
      linkCaption: p.linkCaption,
      apiKeyEnv: p.apiKeyEnv,
      apiKey: p.apiKey,
    })),
    logger,
  });
  const projects = config.projects.filter((p) => report.enabled.includes(p.linkCaption));
  if (projects.length === 0) {
    throw new Error(
      'no project can be read with the configured keys (see the warnings above): fix the keys and start again',
    );
  }

  const health = createHealthMonitor({ clock, projects: projects.map((p) => p.linkCaption) });
  const wiring = wireFundbot({
    api,
    store,
    clock,
    random: systemRandom,
    logger,
    metrics,
    version,
    projects: projects.map((p) => ({ linkCaption: p.linkCaption, key: p.apiKey, milestones: p.milestones })),
    engineOptions: {
      reserveShare: config.engine.reserveFraction,
      burstThreshold: config.engine.burstThreshold,
      floodRatio: config.engine.floodRatio,
      ...overrides.engineOptions,
    },
    defaultLocale: config.locale,
    digestTimeZone: config.digest.timeZone,
    onPoll: (poll) => {
      if (poll.result === 'ok') health.recordPoll(poll.project, true);
      const key = projects.find((p) => p.linkCaption === poll.project)?.apiKey;
      const budget = key && api.budget(key);
      if (budget) metrics.setApiBudget(poll.project, budget);
    },
  });

  const adapters: {
    name: string;
    start(): Promise<void>;
    stop(): Promise<void>;
    poster: ChannelPoster;
    channelAccess: ChannelAccess;
  }[] = [];
  if (config.discord.enabled) {
    adapters.push({
      name: 'discord',
      ...createDiscordAdapter({
        token: config.discord.token.reveal(),
        core: wiring.core,
        logger,
        clock,
        ...(overrides.discordRestApiUrl ? { restApiUrl: overrides.discordRestApiUrl } : {}),
      }),
    });
  }
  if (config.slack.enabled) {
    const slack =
      config.slack.mode === 'socket'
        ? createSlackAdapter({
            mode: 'socket',
            botToken: config.slack.botToken.reveal(),
            appToken: config.slack.appToken.reveal(),
            admins: config.slack.admins,
            core: wiring.core,
            logger,
            clock,
            ...(overrides.slackApiUrl ? { slackApiUrl: overrides.slackApiUrl } : {}),
          })
        : createSlackAdapter({
            mode: 'http',
            botToken: config.slack.botToken.reveal(),
            signingSecret: config.slack.signingSecret.reveal(),
            port: config.slack.port,
            admins: config.slack.admins,
            core: wiring.core,
            logger,
            clock,
            ...(overrides.slackApiUrl ? { slackApiUrl: overrides.slackApiUrl } : {}),
          });
    adapters.push({
      name: 'slack',
      start: () => slack.start(),
      stop: () => slack.stop(),
      poster: slack.poster,
      channelAccess: slack.channelAccess,
    });
  }
  wiring.connectPosters(adapters.map((a) => a.poster));
  for (const adapter of adapters) wiring.connectChannelAccess(adapter.poster.platform, adapter.channelAccess);

  let ops: OpsServer | undefined;
  if (config.http.enabled) {
    ops = await startOpsServer({
      host: config.http.host,
      port: config.http.port,
      registry,
      logger,
      health: () => health.report(),
    });
    logger.info({ url: ops.url }, 'health and metrics endpoint listening (/healthz, /metrics)');
  }

  for (const adapter of adapters) {
    await adapter.start();
    logger.info({ adapter: adapter.name }, 'chat adapter connected');
  }
  await wiring.engine.start();

  let digest: DigestScheduler | undefined;
  if (config.digest.enabled) {
    digest = createDigestScheduler({
      readModel: wiring.engine.readModel,
      subscriptions: wiring.subscriptions,
      localeFor: (channel) => wiring.core.localeFor(channel),
      post: wiring.post,
      store,
      clock,
      time: config.digest.time,
      timeZone: config.digest.timeZone,
      projects: () => projects.map((p) => p.linkCaption),
      milestonesFor: wiring.milestonesFor,
      logger,
    });
    digest.start();
    void digest
      .sendMissedOnStart()
      .catch((error: unknown) => logger.error({ err: error }, 'missed digest check failed'));
  }
  logger.info(
    { version, projects: projects.map((p) => p.linkCaption), adapters: adapters.map((a) => a.name) },
    'fundbot is running',
  );

  return {
    opsUrl: ops?.url,
    shutdownSteps: [
      { name: 'stop the digest schedule', stop: async () => digest?.stop() },
      // The cycle in flight finishes its deliveries while the adapters can still post.
      { name: 'stop pollers after the cycle in flight', stop: () => wiring.engine.stop() },
      ...adapters.map((a) => ({ name: `stop ${a.name} (commands in flight finish)`, stop: () => a.stop() })),
      { name: 'close the API client', stop: () => api.close() },
      { name: 'flush and close the store', stop: () => store.close() },
      { name: 'close the health server', stop: async () => ops?.close() },
    ],
  };
}
