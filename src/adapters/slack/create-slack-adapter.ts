import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, LogLevel, type webApi } from '@slack/bolt';
import type { ChannelAccess, ChannelPoster, CommandCore } from '../../core/index.js';
import { type CommandDefinition, commandDefinitions } from '../../domain/command-definitions.js';
import type { Logger } from '../../domain/logger.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { boltLogger, stderrLogger } from './bolt-logger.js';
import { createSlackPoster } from './create-slack-poster.js';
import { createSlashCommandHandler } from './handle-slash-command.js';
import {
  botRetryPolicy,
  rejectRateLimitedCalls,
  socketConnectionRetryPolicy,
  webApiTimeoutMs,
} from './retry-policy.js';
import { createSlackChannelAccess } from './slack-channel-access.js';
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
  /** Web API base, e.g. a fake's `http://127.0.0.1:PORT/api/` (default https://slack.com/api/). */
  readonly slackApiUrl?: string;
  readonly clock?: Clock;
  /** Overrides the bot's Web API retry policy (tests use a fast one). */
  readonly retryPolicy?: webApi.RetryOptions;
  /** Default: commands/definitions.ts. */
  readonly definitions?: readonly CommandDefinition[];
  /** How long users.info answers are reused (default 60 s). */
  readonly userCacheTtlMs?: number;
  /** How long stop() waits for slash commands in progress (default 10 s). */
  readonly drainTimeoutMs?: number;
}

export interface SlackAdapter {
  /** Checks the bot token (auth.test), then connects (socket) or listens (http). */
  start(): Promise<void>;
  /** Disconnects or stops listening, then waits (bounded) for commands in progress. */
  stop(): Promise<void>;
  /** For the outbox: posts notices into Slack channels. Usable without start(). */
  readonly poster: ChannelPoster;
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
export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const mode = options.mode ?? 'socket';
  const logger = options.logger ?? stderrLogger;
  const clock = options.clock ?? systemClock;
  const boltLog = boltLogger(logger);

  if (mode === 'socket' && !options.appToken) {
    throw new Error(
      'Slack Socket Mode needs an app-level token: set FUNDBOT_SLACK_APP_TOKEN (xapp-…, scope connections:write) or use HTTP mode with FUNDBOT_SLACK_SIGNING_SECRET',
    );
  }
  if (mode === 'http' && !options.signingSecret) {
    throw new Error(
      'Slack HTTP mode needs the signing secret: set FUNDBOT_SLACK_SIGNING_SECRET (Basic Information → App Credentials)',
    );
  }

  const clientOptions: webApi.WebClientOptions = {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: options.retryPolicy ?? botRetryPolicy,
    rejectRateLimitedCalls,
    timeout: webApiTimeoutMs,
  };
  // The Socket Mode client gets its own options (Bolt passes installerOptions.clientOptions
  // to it): its connection call must retry without end, see socketConnectionRetryPolicy.
  const socketClientOptions: webApi.WebClientOptions = {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
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
        })
      : undefined;

  const app = new App({
    token: options.botToken,
    logger: boltLog,
    logLevel: LogLevel.INFO,
    clientOptions,
    // auth.test runs in start(), where a bad token can fail loudly, not as an
    // unhandled rejection in the constructor.
    deferInitialization: true,
    ...(receiver
      ? { receiver }
      : {
          socketMode: true,
          appToken: options.appToken ?? '',
          installerOptions: { clientOptions: socketClientOptions },
        }),
  });

  const users = createSlackUserLookup({
    client: app.client,
    clock,
    logger,
    ...(options.userCacheTtlMs !== undefined ? { ttlMs: options.userCacheTtlMs } : {}),
  });
  const handle = createSlashCommandHandler({
    core: options.core,
    definitions: options.definitions ?? commandDefinitions,
    users,
    admins: new Set(options.admins ?? []),
    logger,
  });

  const inFlight = new Set<Promise<void>>();
  app.command(/^\/.+/, async ({ command, ack, respond }) => {
    // Ack first, always, and empty: Slack's deadline is 3 seconds, and the answer goes to response_url.
    await ack();
    const run = handle(command, respond);
    inFlight.add(run);
    try {
      await run;
    } finally {
      inFlight.delete(run);
    }
  });
  app.error(async (error) => {
    logger.error({ err: error.message, code: error.code }, 'Slack event processing failed');
  });

  let url: string | undefined;
  let started = false;

  return {
    poster: createSlackPoster(app.client),
    channelAccess: createSlackChannelAccess(app.client, logger),
    get url() {
      return url;
    },
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw new Error(
          'Slack rejected the bot token (auth.test): check FUNDBOT_SLACK_BOT_TOKEN (xoxb-…, from OAuth & Permissions) and that the app is installed',
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
      if (inFlight.size === 0) return;
      const drained = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight]),
        clock.sleep(options.drainTimeoutMs ?? 10_000, drained.signal).catch(() => {}),
      ]);
      drained.abort();
    },
  };
}
