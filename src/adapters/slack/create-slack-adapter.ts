import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, SocketModeReceiver, type webApi } from '@slack/bolt';
import type { ChannelAccess, ChannelRef, CommandCore } from '../../core/index.js';
import type { ChannelPoster, DirectMessenger, Sighting } from '../../delivery/index.js';
import { type CommandDefinition, commandDefinitions } from '../../domain/command-definitions.js';
import type { Logger } from '../../domain/logger.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import type { KeyValueStore } from '../../lib/store.js';
import { listenForAppHome } from './app-home.js';
import { boltLogger, stderrLogger } from './bolt-logger.js';
import { listenForConnectForm } from './connect-form.js';
import { createSlackPoster, createSlackPostingClient, defaultPostTimeoutMs } from './create-slack-poster.js';
import { drainInFlight } from './drain-in-flight.js';
import { createSlashCommandHandler } from './handle-slash-command.js';
import { createSlackOAuthAdapter, type SlackOAuthAdapterOptions } from './oauth/index.js';
import { listenForOwnMessages } from './own-message-events.js';
import {
  botRetryPolicy,
  rejectRateLimitedCalls,
  socketConnectionRetryPolicy,
  webApiTimeoutMs,
} from './retry-policy.js';
import { listenForAccessChanges } from './slack-access-events.js';
import { createSlackChannelAccess } from './slack-channel-access.js';
import { createSlackDirectMessenger } from './slack-direct-messages.js';
import { replayGuardReceiverOptions, SlackReplayError, useSlackReplayGuard } from './slack-replay-guard.js';
import { createSlackUserLookup } from './slack-user-lookup.js';

export interface SlackAdapterOptions {
  /** Bot token (`xoxb-…`), FUNDBOT_SLACK_BOT_TOKEN. */
  readonly botToken: string;
  /** 'socket' (default): no public URL needed. 'http': Slack calls `<public url>/slack/events`. */
  readonly mode?: 'socket' | 'http';
  /** App-level token (`xapp-…`, scope connections:write), FUNDBOT_SLACK_APP_TOKEN; socket mode. */
  readonly appToken?: string;
  /** FUNDBOT_SLACK_SIGNING_SECRET; http mode. */
  readonly signingSecret?: string;
  /** http mode: where to listen (default 3000 on all interfaces). */
  readonly port?: number;
  readonly host?: string;
  readonly core: CommandCore;
  /** Slack user ids that may administer fundbot besides workspace admins and owners. */
  readonly admins?: readonly string[];
  readonly logger?: Logger;
  /**
   * Web API base (SLACK_API_URL / `slack.apiUrl`), e.g. Slack for government or a
   * fake's `http://127.0.0.1:PORT/api/` (default https://slack.com/api/). The config
   * validates it (https, or http only to localhost).
   */
  readonly apiUrl?: string;
  /** @deprecated the former name of {@link apiUrl}. */
  readonly slackApiUrl?: string;
  /**
   * http mode: where signatures of verified requests are remembered for 5 minutes, so
   * a replayed request is refused on every replica. Without it, replays are not checked.
   */
  readonly store?: KeyValueStore;
  /** How long a notice post is given before it is in doubt (default 30 s). */
  readonly postTimeoutMs?: number;
  /** Minimum time between two conversations.history looks (default 60 s, Slack's limit). */
  readonly historyIntervalMs?: number;
  readonly clock?: Clock;
  /** Overrides the bot's Web API retry policy (tests use a fast one). */
  readonly retryPolicy?: webApi.RetryOptions;
  /** Default: src/domain/command-definitions.ts. */
  readonly definitions?: readonly CommandDefinition[];
  /** How long stop() waits for slash commands in progress (default 10 s). */
  readonly drainTimeoutMs?: number;
  /** Told when the bot may be able to post in a channel again (it joined, the channel was unarchived). */
  readonly onAccessChanged?: (channel: ChannelRef) => void;
  /**
   * Told of each of fundbot's own notices Slack's `message` events show (subscribe the app to
   * `message.channels` and `message.groups`): the delivery pipeline's witness (own-message-events.ts).
   */
  readonly onOwnMessage?: (sighting: Sighting) => void;
  /** Socket Mode: told when the connection drops or reconnects (own-message events of the gap may be lost). */
  readonly onOwnMessagesInterrupted?: () => void;
  /** Told when this process's event stream connects (Socket Mode `connected`; HTTP: the receiver listens). */
  readonly onOwnMessagesConnected?: () => void;
}

/** Many workspaces: Bolt's OAuth install flow and per-workspace tokens instead of one bot token (./oauth). */
export type SlackOAuthModeOptions = SlackOAuthAdapterOptions & { readonly mode: 'oauth' };

export interface SlackAdapter {
  /** Checks the bot token (auth.test), then connects (socket) or listens (http). */
  start(): Promise<void>;
  /** Disconnects or stops listening, then waits (bounded) for commands in progress. */
  stop(): Promise<void>;
  /** For the outbox: posts notices into Slack channels. Usable without start(). */
  readonly poster: ChannelPoster;
  /** The reward watch's direct messages (single-token modes; the OAuth mode has none yet). */
  readonly directMessenger?: DirectMessenger;
  /** For /fundbot subscribe: whether the bot can post in a channel (conversations.info). Usable without start(). */
  readonly channelAccess: ChannelAccess;
  /** http mode, once started: the URL Slack must call (`http://host:port/slack/events`). */
  readonly url: string | undefined;
}

const eventsPath = '/slack/events';

/**
 * The Slack adapter on @slack/bolt 5.
 *
 * HTTP mode does NOT use `processBeforeResponse: true`: with it, Bolt answers
 * Slack's HTTP request only after the listener finished, and a command waiting
 * on the platform API would miss Slack's 3-second deadline ("operation_timeout").
 * Instead every command is acknowledged at once with an empty ack and answered
 * through its response_url. Socket Mode behaves the same (ack by envelope id first).
 */
export function createSlackAdapter(options: SlackAdapterOptions | SlackOAuthModeOptions): SlackAdapter {
  if (options.mode === 'oauth') return createSlackOAuthAdapter(options);
  const mode = options.mode ?? 'socket';
  const logger = options.logger ?? stderrLogger;
  const clock = options.clock ?? systemClock;
  const boltLog = boltLogger(logger);

  if (mode === 'socket' && !options.appToken) {
    throw new Error(
      'Slack Socket Mode needs an app-level token (appToken: xapp-…, scope connections:write), or use HTTP mode with the signing secret',
    );
  }
  if (mode === 'http' && !options.signingSecret) {
    throw new Error(
      'Slack HTTP mode needs the signing secret (signingSecret: Basic Information → App Credentials)',
    );
  }

  // The Web API appends the method name to the base: it must end with a slash.
  const configuredUrl = options.apiUrl ?? options.slackApiUrl;
  const apiUrl = configuredUrl?.replace(/\/*$/, '/');
  const clientOptions: webApi.WebClientOptions = {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    retryConfig: options.retryPolicy ?? botRetryPolicy,
    rejectRateLimitedCalls,
    timeout: webApiTimeoutMs,
  };
  // The Socket Mode client gets its own options (Bolt passes installerOptions.clientOptions
  // to it): its connection call must retry without end, see socketConnectionRetryPolicy.
  const socketClientOptions: webApi.WebClientOptions = {
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    retryConfig: socketConnectionRetryPolicy,
    timeout: webApiTimeoutMs,
    logger: boltLog,
  };

  const receiver =
    mode === 'http'
      ? new HTTPReceiver({
          signingSecret: options.signingSecret ?? '',
          endpoints: eventsPath,
          processBeforeResponse: false,
          logger: boltLog,
          // The verified signature, for the replay check below; a replay is answered 401.
          ...replayGuardReceiverOptions,
        })
      : undefined;
  // Socket Mode's receiver is ours (Bolt would build the same one) so that its connection's drops reach
  // the witness: events Slack could not hand over meanwhile may never come.
  const socketReceiver =
    mode === 'socket'
      ? new SocketModeReceiver({
          appToken: options.appToken ?? '',
          logger: boltLog,
          logLevel: LogLevel.INFO,
          installerOptions: { clientOptions: socketClientOptions },
        })
      : undefined;
  const interrupted = options.onOwnMessagesInterrupted;
  if (socketReceiver && interrupted && options.onOwnMessage) {
    socketReceiver.client.on('disconnected', () => interrupted());
    socketReceiver.client.on('reconnecting', () => interrupted());
  }
  const connected = options.onOwnMessage ? options.onOwnMessagesConnected : undefined;
  if (socketReceiver && connected) socketReceiver.client.on('connected', () => connected());

  const app = new App({
    token: options.botToken,
    logger: boltLog,
    logLevel: LogLevel.INFO,
    clientOptions,
    // auth.test runs in start(), where a bad token can fail loudly, not as an
    // unhandled rejection in the constructor.
    deferInitialization: true,
    // Our own message events are the delivery pipeline's witness (own-message-events.ts).
    ignoreSelf: options.onOwnMessage === undefined,
    ...(receiver ? { receiver } : socketReceiver ? { receiver: socketReceiver } : {}),
  });

  const users = createSlackUserLookup({
    client: app.client,
    clock,
    logger,
  });
  const poster = createSlackPoster({
    client: createSlackPostingClient(options.botToken, {
      ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
      postTimeoutMs: options.postTimeoutMs ?? defaultPostTimeoutMs,
      logger: boltLog,
    }),
    postTimeoutMs: options.postTimeoutMs ?? defaultPostTimeoutMs,
    clock,
    ...(options.historyIntervalMs !== undefined ? { historyIntervalMs: options.historyIntervalMs } : {}),
  });
  const handle = createSlashCommandHandler({
    core: options.core,
    postWithAttachment: async (channel, message) => {
      await poster.post(channel, message, `command:${clock.now()}`);
    },
    definitions: options.definitions ?? commandDefinitions,
    users,
    admins: new Set(options.admins ?? []),
    logger,
  });

  // Before every listener: a signed request seen within its window does not run again.
  if (receiver && options.store) useSlackReplayGuard(app, options.store, clock);

  if (options.onAccessChanged) listenForAccessChanges(app, options.onAccessChanged);
  if (options.onOwnMessage) listenForOwnMessages(app, options.onOwnMessage);

  const hostedDeps = { core: options.core, users, admins: new Set(options.admins ?? []), logger };
  listenForConnectForm(app, hostedDeps);
  listenForAppHome(app, hostedDeps);
  const inFlight = new Set<Promise<void>>();
  app.command(/^\/.+/, async ({ command, ack, respond, client }) => {
    // Ack first, always, and empty: Slack's deadline is 3 seconds, and the answer goes to response_url.
    await ack();
    const run = handle(command, respond, (view) =>
      client.views.open({ trigger_id: command.trigger_id, view }),
    );
    inFlight.add(run);
    try {
      await run;
    } finally {
      inFlight.delete(run);
    }
  });
  app.error(async (error) => {
    if (error instanceof SlackReplayError) {
      logger.warn({ code: error.code }, error.message);
      // Rethrown so the receiver answers 401 (see processEventErrorHandler).
      throw error;
    }
    logger.error({ err: error.message, code: error.code }, 'Slack event processing failed');
  });

  let url: string | undefined;
  let started = false;

  return {
    poster,
    directMessenger: createSlackDirectMessenger(app.client),
    channelAccess: createSlackChannelAccess(app.client, logger),
    get url() {
      return url;
    },
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw new Error(
          'Slack auth.test failed: the bot token was rejected or Slack could not be reached (see the cause)',
          { cause: error },
        );
      }
      if (receiver) {
        const server = (await app.start({
          port: options.port ?? 3000,
          ...(options.host ? { host: options.host } : {}),
        })) as import('node:http').Server;
        const address = server.address() as AddressInfo;
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        url = `http://${host}:${address.port}${eventsPath}`;
        connected?.();
      } else {
        await app.start();
      }
      started = true;
    },
    async stop() {
      if (started) {
        started = false;
        await app.stop();
        url = undefined;
      }
      await drainInFlight(inFlight, clock, options.drainTimeoutMs ?? 10_000);
    },
  };
}
