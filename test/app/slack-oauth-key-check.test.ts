/**
 * Issue 24, hardening: a wrong FUNDBOT_ENCRYPTION_KEY after a restart refuses to start, saying what to
 * do (it used to start silently, answer no command and log delivery failures as a bare "Error").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { parseConfig } from '../../src/config/index.js';
import { errorSummary } from '../../src/core/read-failure.js';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlackOAuth, startFakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';
import { freePort } from '../support/redis-server.js';

let sim: Simulator | undefined;
let slack: FakeSlackOAuth | undefined;
let bot: RunningBot | undefined;
let dir: string | undefined;

afterEach(async () => {
  for (const step of bot?.shutdownSteps ?? []) await step.stop();
  bot = undefined;
  await slack?.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function start(storeUrl: string, encryptionKey: string): Promise<RunningBot> {
  if (!sim || !slack) throw new Error('fakes not started');
  const parsed = parseConfig(
    JSON.stringify({
      api: { baseUrl: sim.url },
      store: { url: storeUrl },
      projects: [{ linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
      slack: { enabled: true, mode: 'http', port: await freePort(), clientId: slack.clientId },
      digest: { enabled: false },
      http: { enabled: false },
    }),
    {
      env: {
        SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
        SLACK_CLIENT_SECRET: slack.clientSecret,
        SLACK_STATE_SECRET: 'key-check-state-secret-0123456789abcdef',
        SLACK_SIGNING_SECRET: 'key-check-signing-secret',
        FUNDBOT_ENCRYPTION_KEY: encryptionKey,
        SLACK_API_URL: slack.apiUrl,
      },
      source: 'test.json',
    },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return startBot(parsed.config, silentLogger, 'test');
}

describe('FUNDBOT_ENCRYPTION_KEY is verified at start', () => {
  it('the same key starts again; another key refuses to start and says to restore the key', async () => {
    sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
    slack = await startFakeSlackOAuth();
    dir = mkdtempSync(join(tmpdir(), 'fundbot-key-check-'));
    const storeUrl = `sqlite://${join(dir, 'fundbot.sqlite')}`;
    const key = randomBytes(32).toString('base64');

    bot = await start(storeUrl, key);
    for (const step of bot.shutdownSteps) await step.stop();
    bot = await start(storeUrl, key);
    for (const step of bot.shutdownSteps) await step.stop();
    bot = undefined;

    const wrong = start(storeUrl, randomBytes(32).toString('base64'));
    await expect(wrong).rejects.toThrow(
      /FUNDBOT_ENCRYPTION_KEY is not the key this store was set up with.*Restore the previous FUNDBOT_ENCRYPTION_KEY/,
    );
  }, 40_000);

  it('a plain Error in a log summary carries its (redacted) message, never a bare "Error"', () => {
    const summary = errorSummary(new Error('the Slack installation under "x" does not decrypt'));
    expect(summary).toEqual({
      error: 'Error',
      detail: 'the Slack installation under "x" does not decrypt',
    });
    const token = `xoxb-${'1'.repeat(12)}-${'2'.repeat(12)}-${'a'.repeat(24)}`;
    expect(JSON.stringify(errorSummary(new Error(`posting with ${token} failed`)))).not.toContain(token);
    expect(errorSummary(Object.assign(new Error('x'), { code: 'channel_not_found' }))).toEqual({
      error: 'Error',
      code: 'channel_not_found',
    });
  });
});
