import { Gauge, type Registry } from 'prom-client';
import type { DiscordConfig, FundbotConfig, SlackConfig } from '../config/index.js';
import type { ChannelAccess, ChannelRef, CommandCore, SubscriptionStore } from '../core/index.js';
import type { ChannelPoster, Delivery, DirectMessenger, Sighting } from '../delivery/index.js';
import type { Clock } from '../lib/clock.js';
import { storeClaims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import type { Logger } from '../ops/index.js';
import { leasedGateway } from './leased-gateway.js';
import type { ChatPlatform } from './platform-start-error.js';
import type { ReplicaCoordination } from './replica-coordination.js';

/** One chat platform as start-bot runs it: started after the engine is wired, stopped in the shutdown order. */
export interface ChatAdapter {
  readonly name: ChatPlatform;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly poster: ChannelPoster;
  readonly channelAccess: ChannelAccess;
  /** The reward watch's direct messages, where the platform's mode has them. */
  readonly directMessenger?: DirectMessenger;
}

export interface ChatAdapterOptions {
  readonly config: Pick<FundbotConfig, 'discord' | 'slack' | 'publicUrl'>;
  /** The platforms' modules, when their loading was started earlier ({@link loadChatModules}). */
  readonly modules?: Promise<ChatModules>;
  readonly core: CommandCore;
  readonly subscriptions: SubscriptionStore;
  /** Everything of a workspace that uninstalls (Slack OAuth) or removes the bot (a Discord server): see forget-workspace.ts. */
  readonly forgetWorkspace?: (
    workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
  ) => Promise<Record<string, number>>;
  /** The observed store: Slack's replay guard and installations live in it. */
  readonly store: KeyValueStore;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Set on a redis:// store: then the Discord gateway opens only on the holder of its lease. */
  readonly replicas: ReplicaCoordination | undefined;
  /** For `fundbot_discord_gateway_held` (replicas in gateway mode). */
  readonly registry: Registry;
  /** A test's fakes, else the configured DISCORD_API_URL / SLACK_API_URL. */
  readonly discordApiUrl: string | undefined;
  readonly slackApiUrl: string | undefined;
  /** Discord's deferral delay (default 2 s of Discord's 3). */
  readonly discordDeferAfterMs?: number;
  /** The platforms' hints that the bot may post in a channel again (the delivery pipeline re-checks it). */
  readonly onAccessChanged?: (scope: ChannelRef | Pick<ChannelRef, 'platform' | 'workspaceId'>) => void;
  /**
   * The platforms' events for the bot's own notices go to the delivery pipeline's witness (Delivery.witnessed),
   * and a broken event stream (Socket Mode or gateway disconnect) is told to it (Delivery.witnessInterrupted).
   */
  readonly ownMessages?: OwnMessageWitness;
}

/** Where the platforms' events for the bot's own messages go (the delivery pipeline). */
export type OwnMessageWitness = Pick<Delivery, 'witnessed' | 'witnessInterrupted' | 'witnessConnected'>;

/** An adapter's options for its own-message events, bound to the witness. */
function ownMessageOptions(witness: OwnMessageWitness | undefined, platform: ChannelRef['platform']) {
  return witness
    ? {
        onOwnMessage: (sighting: Sighting) => witness.witnessed(sighting),
        onOwnMessagesInterrupted: () => witness.witnessInterrupted(platform),
        onOwnMessagesConnected: () => witness.witnessConnected(platform),
      }
    : {};
}

/** A platform's adapter modules; imported only when the platform is configured (see createChatAdapters). */
type DiscordModules = typeof import('../adapters/discord/index.js') &
  typeof import('../adapters/discord/discord-direct-messages.js');
type SlackModules = typeof import('../adapters/slack/index.js');

/** The configured platforms' adapter modules, loaded ({@link loadChatModules}). */
export interface ChatModules {
  readonly discord?: DiscordModules;
  readonly slack?: SlackModules;
}

/**
 * Loads the configured platforms' adapter modules, only those: discord.js and @slack/bolt cost ~1.2 s of CPU to
 * load even when unused, which every replica paid at start-up before its first poll. Started first thing by
 * startBot and awaited by {@link createChatAdapters}, so the loading (bolt: ~0.4 s of the main thread) runs while
 * the start-up waits on the store and on the fleet's join instead of after them: three replicas of 1,000 projects
 * (bench scaleRedis) sat idle together for 1.3 s of their join, then loaded bolt on the way to their first polls.
 */
export function loadChatModules(config: Pick<FundbotConfig, 'discord' | 'slack'>): Promise<ChatModules> {
  const loading = importChatModules(config);
  // Handled here, so a start that fails before the adapters are made leaves no unhandled rejection; whoever
  // awaits the promise still gets the failure.
  loading.catch(() => {});
  return loading;
}

async function importChatModules(config: Pick<FundbotConfig, 'discord' | 'slack'>): Promise<ChatModules> {
  const [discord, slack] = await Promise.all([
    config.discord.enabled
      ? Promise.all([
          import('../adapters/discord/index.js'),
          import('../adapters/discord/discord-direct-messages.js'),
        ]).then(([adapter, dms]): DiscordModules => ({ ...adapter, ...dms }))
      : undefined,
    config.slack.enabled ? import('../adapters/slack/index.js') : undefined,
  ]);
  return { ...(discord ? { discord } : {}), ...(slack ? { slack } : {}) };
}

/**
 * A configured platform's modules. Missing only when `ChatAdapterOptions.modules` was loaded for another config:
 * a bug, said at start, never a configured platform silently left out.
 */
function loadedFor<T>(modules: T | undefined, platform: string): T {
  if (modules === undefined)
    throw new Error(`the ${platform} adapter's modules were not loaded for this config`);
  return modules;
}

/**
 * The configured chat platforms' adapters, not started yet, from their modules (`options.modules`, or loaded here).
 */
export async function createChatAdapters(options: ChatAdapterOptions): Promise<ChatAdapter[]> {
  const adapters: ChatAdapter[] = [];
  const { discord, slack } = options.config;
  const loaded = await (options.modules ?? loadChatModules(options.config));
  if (discord.enabled) {
    adapters.push({
      name: 'discord',
      ...withDiscordDms(loadedFor(loaded.discord, 'discord'), discord, options),
    });
  }
  if (slack.enabled) {
    const adapter = slackAdapter(loadedFor(loaded.slack, 'slack'), slack, options);
    adapters.push({
      name: 'slack',
      start: () => adapter.start(),
      stop: () => adapter.stop(),
      poster: adapter.poster,
      channelAccess: adapter.channelAccess,
      ...(adapter.directMessenger ? { directMessenger: adapter.directMessenger } : {}),
    });
  }
  return adapters;
}

/** The Discord adapter of the mode, with the reward watch's direct messages over REST (every mode). */
function withDiscordDms(
  modules: DiscordModules,
  discord: Extract<DiscordConfig, { enabled: true }>,
  options: ChatAdapterOptions,
): Omit<ChatAdapter, 'name'> {
  const adapter = discordAdapter(modules, discord, options);
  const dms = modules.createDiscordDirectMessenger({
    token: discord.token.reveal(),
    apiUrl: options.discordApiUrl,
  });
  return {
    ...adapter,
    directMessenger: dms,
    async stop() {
      await adapter.stop();
      await dms.close();
    },
  };
}

function discordAdapter(
  modules: DiscordModules,
  discord: Extract<DiscordConfig, { enabled: true }>,
  options: ChatAdapterOptions,
): Omit<ChatAdapter, 'name'> {
  const { createDiscordAdapter, createDiscordRestPosting, defaultInteractionsPath } = modules;
  const { logger, clock, core, replicas } = options;
  const token = discord.token.reveal();
  const apiUrl = withApiUrl(options.discordApiUrl);
  const defer =
    options.discordDeferAfterMs !== undefined ? { deferAfterMs: options.discordDeferAfterMs } : {};
  if (discord.mode === 'http') {
    const adapter = createDiscordAdapter({
      mode: 'http',
      token,
      core,
      logger,
      clock,
      ...apiUrl,
      ...defer,
      http: {
        applicationId: discord.applicationId,
        publicKey: discord.publicKey,
        port: discord.port,
        // A replayed interaction is refused by every replica (Redis), or across restarts (one process's store).
        claims: replicas?.claims ?? storeClaims(options.store, clock, 'discord-http'),
      },
    });
    return {
      poster: adapter.poster,
      channelAccess: adapter.channelAccess,
      async start() {
        await adapter.start();
        logger.info(
          {
            listening: adapter.url,
            interactionsEndpointUrl: options.config.publicUrl
              ? `${options.config.publicUrl}${defaultInteractionsPath}`
              : `https://<your public host>${defaultInteractionsPath} (set publicUrl or FUNDBOT_PUBLIC_URL)`,
          },
          'discord http interactions mode: no gateway session; set the Interactions Endpoint URL in the Developer Portal',
        );
      },
      stop: () => adapter.stop(),
    };
  }
  const accessHint = options.onAccessChanged ? { onAccessChanged: options.onAccessChanged } : {};
  const forget = options.forgetWorkspace ? { forgetWorkspace: options.forgetWorkspace } : {};
  const own = ownMessageOptions(options.ownMessages, 'discord');
  const gatewayAdapter = () =>
    createDiscordAdapter({
      token,
      core,
      logger,
      clock,
      ...apiUrl,
      ...defer,
      ...accessHint,
      ...forget,
      ...own,
    });
  if (!replicas) return gatewayAdapter();
  // Several replicas: one session for the fleet, opened by the lease holder; notices go out through REST
  // from whichever replica polls the project (only the holder has the gateway's channel cache).
  const rest = createDiscordRestPosting({ token, clock, ...apiUrl });
  const gateway = leasedGateway({
    lease: replicas.singletons,
    holder: replicas.replicaId,
    ttlMs: replicas.ttlMs,
    clock,
    logger,
    async connect() {
      const session = gatewayAdapter();
      await session.start();
      return session;
    },
  });
  new Gauge({
    name: 'fundbot_discord_gateway_held',
    help: '1 while this replica holds the discord-gateway lease and its session is open (summed over replicas: 1).',
    registers: [options.registry],
    collect() {
      this.set(gateway.connected() ? 1 : 0);
    },
  });
  return {
    poster: rest.poster,
    channelAccess: rest.channelAccess,
    start: () => gateway.start(),
    async stop() {
      await gateway.stop();
      await rest.close();
    },
  };
}

function slackAdapter(
  { createSlackAdapter, encryptionKeyFromBase64 }: SlackModules,
  slack: Extract<SlackConfig, { enabled: true }>,
  options: ChatAdapterOptions,
) {
  const { logger, clock, core, store } = options;
  const accessHint = {
    ...(options.onAccessChanged ? { onAccessChanged: options.onAccessChanged } : {}),
    ...ownMessageOptions(options.ownMessages, 'slack'),
  };
  const apiUrl = withApiUrl(options.slackApiUrl);
  switch (slack.mode) {
    case 'socket':
      return createSlackAdapter({
        mode: 'socket',
        botToken: slack.botToken.reveal(),
        appToken: slack.appToken.reveal(),
        admins: slack.admins,
        core,
        logger,
        clock,
        ...apiUrl,
        ...accessHint,
      });
    case 'http':
      return createSlackAdapter({
        mode: 'http',
        botToken: slack.botToken.reveal(),
        signingSecret: slack.signingSecret.reveal(),
        port: slack.port,
        // Replayed signed requests are refused on every replica.
        store,
        admins: slack.admins,
        core,
        logger,
        clock,
        ...apiUrl,
        ...accessHint,
      });
    case 'oauth':
      return createSlackAdapter({
        mode: 'oauth',
        clientId: slack.clientId,
        clientSecret: slack.clientSecret.reveal(),
        stateSecret: slack.stateSecret.reveal(),
        signingSecret: slack.signingSecret.reveal(),
        encryptionKey: encryptionKeyFromBase64(slack.encryptionKey.reveal()),
        // Every replica sees every workspace's installation; an uninstall removes its subscriptions.
        store,
        subscriptions: options.subscriptions,
        ...(options.forgetWorkspace ? { forgetWorkspace: options.forgetWorkspace } : {}),
        ...(options.config.publicUrl ? { publicUrl: options.config.publicUrl } : {}),
        port: slack.port,
        admins: slack.admins,
        core,
        logger,
        clock,
        ...accessHint,
        // The Web API appends the method name to the base: it must end with a slash.
        ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl.replace(/\/*$/, '/') } : {}),
      });
  }
}

/** A platform's base URL option (SLACK_API_URL / DISCORD_API_URL or a test's fake), only when one is set. */
function withApiUrl(url: string | undefined): { apiUrl?: string } {
  return url === undefined ? {} : { apiUrl: url };
}
