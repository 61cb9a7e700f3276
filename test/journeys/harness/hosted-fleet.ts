/**
 * Three replicas of `npm start` (src/main.ts, each its own process) on one real redis-server, hosting projects
 * connected from Slack (OAuth, HTTP events) and Discord (HTTP interactions) at once, against the simulator and
 * the recording fakes. The journey (hosted-replicas.test.ts) drives them only from outside: signed requests to
 * each replica in turn, the simulator's controls, and what the fakes recorded.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord/fake-discord.js';
import { type SignedInteractions, signedInteractions } from '../../fakes/discord/signed-interactions.js';
import {
  type FakeSlackOAuth,
  type FakeWorkspace,
  startFakeSlackOAuth,
} from '../../fakes/slack/fake-slack-oauth.js';
import {
  connectFormSubmission,
  postSignedCommand,
  postSignedEvent,
  slashCommand,
} from '../../slack/helpers.js';
import { installWorkspace } from '../../slack/oauth-browser.js';
import type { RedisServer } from '../../support/redis-server.js';
import { waitUntil } from '../../support/wait-until.js';
import { type BotProcess, type Entry, startBotProcess } from './bot-process.js';
import type { JourneyWorld } from './journey-world.js';

const signingSecret = 'hosted-fleet-signing-secret';

export interface FleetReplica {
  readonly bot: BotProcess;
  readonly slackUrl: string;
  readonly discordUrl: string;
  readonly opsUrl: string;
}

export interface HostedFleet {
  readonly replicas: readonly FleetReplica[];
  readonly slack: FakeSlackOAuth;
  readonly discord: FakeDiscord;
  readonly signed: SignedInteractions;
  /** Installs fundbot in a Slack workspace (the whole OAuth flow on one replica: its state cookie). */
  install(team: FakeWorkspace, replica: number): Promise<void>;
  /** A slash command of `user` in `channel`; resolves with the text of its answer (response_url). */
  slackCommand(
    replica: number,
    team: FakeWorkspace,
    user: string,
    text: string,
    channel: string,
  ): Promise<string>;
  /** Submits Slack's connect form as a view_submission; resolves with the private answer's text. */
  slackConnect(
    replica: number,
    team: FakeWorkspace,
    user: string,
    project: string,
    key: string,
  ): Promise<string>;
  /** A signed Slack event (app_home_opened, app_uninstalled) to one replica. */
  slackEvent(replica: number, team: FakeWorkspace, event: Record<string, unknown>): Promise<void>;
  /** A Discord interaction to one replica; resolves with the text of its answer (at once or deferred). */
  discordInteraction(replica: number, payload: Record<string, unknown> & { token: string }): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the fakes and three replicas (the operator's project configured in each) on `entry`; resolves once all
 * run.
 */
export async function startHostedFleet(
  world: JourneyWorld,
  redis: RedisServer,
  entry: Entry,
): Promise<HostedFleet> {
  const slack = await startFakeSlackOAuth();
  const discord = await startFakeDiscord();
  const signed = signedInteractions(discord);
  const env = {
    SOLAR_KIOSK_API_KEY: world.apiKey,
    SLACK_CLIENT_SECRET: slack.clientSecret,
    SLACK_STATE_SECRET: 'hosted-fleet-state-secret-0123456789abcdef',
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: slack.apiUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_PUBLIC_KEY: signed.publicKeyHex,
    DISCORD_API_URL: discord.apiUrl,
    FUNDBOT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const replicas = await Promise.all(
    [1, 2, 3].map(async (n): Promise<FleetReplica> => {
      const [slackPort, discordPort, opsPort] = [
        await world.freePort(),
        await world.freePort(),
        await world.freePort(),
      ];
      const config = join(world.dir, `replica-${n}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          api: { baseUrl: world.sim.url },
          store: { url: redis.url, leaseTtlMs: 3_000 },
          projects: [{ linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
          slack: { enabled: true, mode: 'http', port: slackPort, clientId: slack.clientId },
          discord: { enabled: true, mode: 'http', applicationId: discord.applicationId, port: discordPort },
          hosted: { enabled: true, maxProjectsPerWorkspace: 12 },
          digest: { enabled: false },
          http: { enabled: true, port: opsPort },
        }),
      );
      const bot = startBotProcess({
        name: `replica ${n}`,
        entry,
        cwd: world.dir,
        env: { ...env, FUNDBOT_CONFIG: config },
      });
      await bot.waitForLog(/fundbot is running/, `replica ${n} to start`, 90_000);
      return {
        bot,
        slackUrl: `http://127.0.0.1:${slackPort}`,
        discordUrl: `http://127.0.0.1:${discordPort}/discord/interactions`,
        opsUrl: `http://127.0.0.1:${opsPort}`,
      };
    }),
  );
  const at = (replica: number) => replicas[replica % replicas.length] as FleetReplica;

  const events = (replica: number) => `${at(replica).slackUrl}/slack/events`;

  return {
    replicas,
    slack,
    discord,
    signed,
    async install(team, replica) {
      expect((await installWorkspace(at(replica).slackUrl, slack, team)).status).toBe(200);
    },
    async slackCommand(replica, team, user, text, channel) {
      const responseUrl = slack.responseUrl();
      const fields = slashCommand({
        response_url: responseUrl,
        team_id: team.teamId,
        user_id: user,
        channel_id: channel,
        text,
      });
      expect((await postSignedCommand(events(replica), signingSecret, fields)).status).toBe(200);
      const answer = await waitUntil(
        `the answer to /fundbot ${text}`,
        () => slack.responses.find((r) => responseUrl.endsWith(r.id)),
        { timeoutMs: 30_000 },
      );
      return JSON.stringify(answer.body);
    },
    async slackConnect(replica, team, user, project, key) {
      const before = slack.calls.length;
      const form = connectFormSubmission({
        teamId: team.teamId,
        userId: user,
        project,
        key,
        channel: 'C0TEAM',
      });
      expect((await postSignedCommand(events(replica), signingSecret, form)).status).toBe(200);
      const answer = await waitUntil(
        `the private answer to connecting ${project}`,
        () =>
          slack.calls.slice(before).find((c) => c.method === 'chat.postEphemeral' && c.args.user === user),
        { timeoutMs: 30_000 },
      );
      return `${answer.args.text ?? ''} ${answer.args.blocks ?? ''}`;
    },
    async slackEvent(replica, team, event) {
      expect((await postSignedEvent(events(replica), signingSecret, team.teamId, event)).status).toBe(200);
    },
    async discordInteraction(replica, payload) {
      const answer = await signed.post(at(replica).discordUrl, payload);
      expect(answer.status).toBe(200);
      const sent = answer.body as { type: number; data?: unknown };
      if (sent.type === 4) return JSON.stringify(sent.data);
      expect(sent.type).toBe(5);
      const edit = await discord.waitForRequest(
        (r) => r.method === 'PATCH' && r.path.includes(payload.token) && r.path.endsWith('@original'),
        30_000,
      );
      return JSON.stringify(edit.body);
    },
    async close() {
      await Promise.all(replicas.map((r) => r.bot.stop('SIGTERM').catch(() => undefined)));
      await slack.close();
      await discord.close();
    },
  };
}
