/**
 * The composition root (startBot) run in the test process on a config written here, against the simulator and
 * the platform fakes: what a test of the assembled bot starts is stopped when that test ends (vitest's
 * onTestFinished, the last started first), pass or fail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { type RunningBot, startBot } from '../../../src/app/start-bot.js';
import { type FundbotConfig, parseConfig } from '../../../src/config/index.js';
import { silentLogger } from '../../../src/ops/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type FakeSlackOAuth, startFakeSlackOAuth } from '../../fakes/slack/fake-slack-oauth.js';
import { closeAfterTest } from '../../support/close-after-test.js';
import { demoProjectConfig } from '../../support/demo-project-config.js';
import { freePort } from '../../support/redis-server.js';

/** Simulator limits the tests' short poll intervals stay inside: the budget is the benchmark's business. */
export const roomyLimits = { pro: { perMinute: 10_000, perDay: 1_000_000 } };

/** A config file's JSON as fundbot reads it at start, with `env` as its environment; a problem fails the test. */
export function configOf(
  json: object,
  env: Readonly<Record<string, string>>,
  source = 'test.json',
): FundbotConfig {
  const parsed = parseConfig(JSON.stringify(json), { env, source });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

/** Stops a bot as SIGTERM does: its shutdown steps in order. */
export async function stopBot(bot: RunningBot): Promise<void> {
  for (const step of bot.shutdownSteps) await step.stop();
}

/** startBot, stopped when the test ends. */
export async function startBotInTest(...args: Parameters<typeof startBot>): Promise<RunningBot> {
  const bot = await startBot(...args);
  onTestFinished(() => stopBot(bot));
  return bot;
}

/** A SQLite store URL in a fresh temporary directory, removed when the test ends. */
export function sqliteStoreUrl(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite://${join(dir, 'fundbot.sqlite')}`;
}

/**
 * fundbot for many Slack workspaces (`slack.clientId`, HTTP mode on `port`) watching the demo project, as the OAuth
 * tests configure it: the fake Slack's client and Web API, the given store and secrets.
 */
export function slackOAuthConfig(
  sim: Simulator,
  fake: FakeSlackOAuth,
  options: {
    readonly storeUrl: string;
    readonly port: number;
    readonly signingSecret: string;
    readonly stateSecret: string;
    readonly encryptionKey: string;
  },
): FundbotConfig {
  return configOf(
    demoProjectConfig(sim, {
      store: { url: options.storeUrl },
      slack: { enabled: true, mode: 'http', port: options.port, clientId: fake.clientId },
      digest: { enabled: false },
      http: { enabled: false },
    }),
    {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      SLACK_CLIENT_SECRET: fake.clientSecret,
      SLACK_STATE_SECRET: options.stateSecret,
      SLACK_SIGNING_SECRET: options.signingSecret,
      FUNDBOT_ENCRYPTION_KEY: options.encryptionKey,
      SLACK_API_URL: fake.apiUrl,
    },
  );
}

/**
 * fundbot for many Slack workspaces through startBot, as the OAuth tests of the whole bot start it: the simulator
 * (roomy limits), the fake Slack's OAuth and Web API, a fresh SQLite store (`storePrefix` names its folder) and
 * a free port; all stopped when the test ends. `base` is where Slack and the admins' browsers reach it.
 */
export async function startSlackOAuthBot(options: {
  readonly storePrefix: string;
  readonly signingSecret: string;
  readonly stateSecret: string;
  readonly source: string;
}) {
  const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
  const fake = closeAfterTest(await startFakeSlackOAuth());
  const storeUrl = sqliteStoreUrl(options.storePrefix);
  const port = await freePort();
  const config = slackOAuthConfig(sim, fake, {
    storeUrl,
    port,
    signingSecret: options.signingSecret,
    stateSecret: options.stateSecret,
    encryptionKey: randomBytes(32).toString('base64'),
  });
  await startBotInTest(config, silentLogger, options.source);
  return { sim, fake, storeUrl, config, base: `http://127.0.0.1:${port}` };
}
