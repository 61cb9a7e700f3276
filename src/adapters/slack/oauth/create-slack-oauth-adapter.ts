import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type CodedError, ErrorCode, HTTPReceiver, LogLevel, type webApi } from '@slack/bolt';
import type { ChannelAccess, ChannelRef, CommandCore, SubscriptionStore } from '../../../core/index.js';
import type { ChannelPoster, DirectMessenger, Sighting } from '../../../delivery/index.js';
import { type CommandDefinition, commandDefinitions } from '../../../domain/command-definitions.js';
import type { Logger } from '../../../domain/logger.js';
import { type Clock, systemClock } from '../../../lib/clock.js';
import { verifyEncryptionKey } from '../../../lib/encryption-key-check.js';
import type { KeyValueStore } from '../../../lib/store.js';
import { listenForAppHome } from '../app-home.js';
import { slackBotScopes } from '../app-manifest.js';
import { boltLogger, stderrLogger } from '../bolt-logger.js';
import { listenForConnectForm } from '../connect-form.js';
import { drainInFlight } from '../drain-in-flight.js';
import { createSlashCommandHandler } from '../handle-slash-command.js';
import { listenForOwnMessages } from '../own-message-events.js';
import { botRetryPolicy, rejectRateLimitedCalls, webApiTimeoutMs } from '../retry-policy.js';
import { listenForAccessChanges } from '../slack-access-events.js';
import { replayGuardReceiverOptions, SlackReplayError, useSlackReplayGuard } from '../slack-replay-guard.js';
import { createEncryptedInstallationStore } from './installation-store.js';
import { answerNotInstalled } from './not-installed-answer.js';
import { singleUseStateStore } from './single-use-state-store.js';
import { createTeamClients } from './team-clients.js';
import { createTokenCipher } from './token-cipher.js';

export const slackOAuthPaths = {
  events: '/slack/events',
  install: '/slack/install',
  redirect: '/slack/oauth_redirect',
} as const;

export interface SlackOAuthAdapterOptions {
  /** Basic Information → App Credentials → Client ID (not secret: `slack.clientId` in the config). */
  readonly clientId: string;
  /** SLACK_CLIENT_SECRET. */
  readonly clientSecret: string;
  /** SLACK_STATE_SECRET: signs the OAuth `state`, so a redirect can only finish an install this app started. */
  readonly stateSecret: string;
  /** The signing secret: events and commands arrive over HTTP in this mode. */
  readonly signingSecret: string;
  /** 32 bytes (FUNDBOT_ENCRYPTION_KEY, decoded by the composition root): installations are encrypted with it. */
  readonly encryptionKey: Uint8Array;
  /** Where installations are kept (fundbot's store: every replica sees every workspace). */
  readonly store: KeyValueStore;
  /** To forget a workspace's subscriptions when it uninstalls the app (when {@link forgetWorkspace} is not given). */
  readonly subscriptions: Pick<SubscriptionStore, 'removeWorkspace'>;
  /**
   * Removes everything else stored for a workspace when it uninstalls (subscriptions, language, pacing,
   * daily thread, markers, connected projects: src/app/forget-workspace.ts); returns counts for the log.
   */
  readonly forgetWorkspace?: (
    workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
  ) => Promise<Record<string, number>>;
  /** Public https base, e.g. https://bot.example.com: sets the redirect URL sent to Slack. */
  readonly publicUrl?: string;
  readonly port?: number;
  readonly host?: string;
  readonly core: CommandCore;
  /** Slack user ids that may administer fundbot in any workspace besides its admins and owners. */
  readonly admins?: readonly string[];
  readonly logger?: Logger;
  /** Web API base (default https://slack.com/api/); tests point it at a fake, oauth.v2.access included. */
  readonly slackApiUrl?: string;
  readonly clock?: Clock;
  readonly retryPolicy?: webApi.RetryOptions;
  readonly definitions?: readonly CommandDefinition[];
  readonly drainTimeoutMs?: number;
  /** Told when the bot may be able to post in a channel again (it joined, the channel was unarchived). */
  readonly onAccessChanged?: (channel: ChannelRef) => void;
  /**
   * Told of each of fundbot's own notices Slack's `message` events show (subscribe the app to
   * `message.channels` and `message.groups`): the delivery pipeline's witness (own-message-events.ts).
   */
  readonly onOwnMessage?: (sighting: Sighting) => void;
}

export interface SlackOAuthAdapter {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Posts with each workspace's own bot token. */
  readonly poster: ChannelPoster;
  /** For /subscribe: whether the bot is in the channel, asked with that workspace's token. */
  readonly channelAccess: ChannelAccess;
  /** The reward watch's direct messages, with that workspace's token (scope `im:write`). */
  readonly directMessenger: DirectMessenger;
  /** Once started: the local URL Slack must call (`http://host:port/slack/events`); Slack needs its public https twin. */
  readonly url: string | undefined;
  /** Once started: where a workspace admin starts the install (`http://host:port/slack/install`). */
  readonly installUrl: string | undefined;
}

/**
 * Slack for many workspaces: Bolt's OAuth install flow (`/slack/install` sends
 * the admin to Slack, `/slack/oauth_redirect` exchanges the code through
 * `oauth.v2.access` after checking the signed state against the browser's state
 * cookie), installations encrypted in fundbot's store, and every request
 * authorized with the bot token of the workspace it came from. Each workspace's
 * subscriptions, language and admins are its own because every ChannelRef carries
 * its team id. `app_uninstalled` or a revoked bot token removes the workspace's
 * installation and subscriptions.
 *
 * Cost: one oauth.v2.access per install; per command or notice one store read
 * (the installation) and no extra Slack request.
 */
export function createSlackOAuthAdapter(options: SlackOAuthAdapterOptions): SlackOAuthAdapter {
  const logger = options.logger ?? stderrLogger;
  const clock = options.clock ?? systemClock;
  const boltLog = boltLogger(logger);
  const cipher = createTokenCipher(options.encryptionKey);
  const installations = createEncryptedInstallationStore(options.store, cipher);
  const clientOptions: webApi.WebClientOptions = {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: options.retryPolicy ?? botRetryPolicy,
    rejectRateLimitedCalls,
    timeout: webApiTimeoutMs,
  };
  const teams = createTeamClients({
    installations,
    clientOptions,
    clock,
    logger,
  });

  const receiver = new HTTPReceiver({
    signingSecret: options.signingSecret,
    endpoints: slackOAuthPaths.events,
    // As in single-workspace HTTP mode: ack at once, answer through response_url.
    processBeforeResponse: false,
    logger: boltLog,
    // Replays are refused as in single-workspace HTTP mode (one set-if-absent in the shared store).
    ...replayGuardReceiverOptions,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    stateSecret: options.stateSecret,
    scopes: [...slackBotScopes],
    ...(options.publicUrl ? { redirectUri: new URL(slackOAuthPaths.redirect, options.publicUrl).href } : {}),
    installationStore: {
      async storeInstallation(installation) {
        await installations.storeInstallation(installation);
        logger.info(
          { teamId: installation.team?.id, enterpriseId: installation.enterprise?.id },
          'Slack workspace installed fundbot',
        );
      },
      fetchInstallation: (query) => installations.fetchInstallation(query),
      deleteInstallation: (query) => installations.deleteInstallation(query),
    },
    installerOptions: {
      installPath: slackOAuthPaths.install,
      redirectUriPath: slackOAuthPaths.redirect,
      // /slack/install goes straight to Slack's consent screen.
      directInstall: true,
      stateVerification: true,
      // Single-use: a state already used (a replayed redirect) installs nothing.
      stateStore: singleUseStateStore(options.stateSecret, options.store, () => clock.now()),
      clientOptions,
    },
  });
  // Extended: the error handler gets the request body, so an unauthorized command can still be answered.
  const app = new App({
    receiver,
    logger: boltLog,
    logLevel: LogLevel.INFO,
    clientOptions,
    extendedErrorHandler: true,
    // Our own message events are the delivery pipeline's witness (own-message-events.ts).
    ignoreSelf: options.onOwnMessage === undefined,
  });
  useSlackReplayGuard(app, options.store, clock);

  const handle = createSlashCommandHandler({
    core: options.core,
    definitions: options.definitions ?? commandDefinitions,
    users: teams.users,
    admins: new Set(options.admins ?? []),
    logger,
  });
  const hostedDeps = {
    core: options.core,
    users: teams.users,
    admins: new Set(options.admins ?? []),
    logger,
  };
  listenForConnectForm(app, hostedDeps);
  listenForAppHome(app, hostedDeps);
  const inFlight = new Set<Promise<void>>();
  app.command(/^\/.+/, async ({ command, ack, respond, client }) => {
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

  async function removeWorkspace(teamId: string | undefined, why: string): Promise<void> {
    if (!teamId) return;
    await installations.deleteInstallation({ teamId, isEnterpriseInstall: false, enterpriseId: undefined });
    teams.forget(teamId);
    const workspace = { platform: 'slack', workspaceId: teamId } as const;
    const removed = options.forgetWorkspace
      ? await options.forgetWorkspace(workspace)
      : { subscriptions: await options.subscriptions.removeWorkspace(workspace) };
    logger.info(
      { teamId, removed, why },
      'Slack workspace removed: its installation, subscriptions, settings and connected projects deleted',
    );
  }
  // Bolt skips authorization for these two events: the token may already be gone.
  if (options.onAccessChanged) listenForAccessChanges(app, options.onAccessChanged);
  if (options.onOwnMessage) listenForOwnMessages(app, options.onOwnMessage);
  app.event('app_uninstalled', async ({ body }) => removeWorkspace(body.team_id, 'app_uninstalled'));
  app.event('tokens_revoked', async ({ event, body }) => {
    // Only the bot token matters: fundbot asks for no user scopes.
    if ((event.tokens.bot ?? []).length > 0) await removeWorkspace(body.team_id, 'tokens_revoked');
  });
  app.error(async ({ error, body }: { error: CodedError; body: unknown }) => {
    if (error instanceof SlackReplayError) {
      logger.warn({ code: error.code }, error.message);
      throw error; // the receiver answers 401
    }
    if (error.code === ErrorCode.AuthorizationError) {
      // No installation for this workspace (never installed, or uninstalled): say so instead of silence.
      await answerNotInstalled({ body, core: options.core, installUrl: publicInstallUrl(), logger });
      return;
    }
    logger.error({ err: error.message, code: error.code }, 'Slack event processing failed');
  });

  let base: string | undefined;
  let started = false;
  const publicInstallUrl = () =>
    options.publicUrl ? new URL(slackOAuthPaths.install, options.publicUrl).href : undefined;
  return {
    poster: teams.poster,
    channelAccess: teams.channelAccess,
    directMessenger: teams.directMessenger,
    get url() {
      return base && `${base}${slackOAuthPaths.events}`;
    },
    get installUrl() {
      return base && `${base}${slackOAuthPaths.install}`;
    },
    async start() {
      // A wrong key refuses to start, saying what to do, before any workspace is served.
      await verifyEncryptionKey(options.store, cipher);
      const server = (await app.start({
        port: options.port ?? 3000,
        ...(options.host ? { host: options.host } : {}),
      })) as Server;
      const address = server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      base = `http://${host}:${address.port}`;
      started = true;
      logger.info(
        { install: `${base}${slackOAuthPaths.install}` },
        'Slack OAuth mode: workspaces install fundbot through /slack/install',
      );
    },
    async stop() {
      if (started) {
        started = false;
        await app.stop();
        base = undefined;
      }
      await drainInFlight(inFlight, clock, options.drainTimeoutMs ?? 10_000);
    },
  };
}
