/**
 * Issue 24, hardening: a wrong FUNDBOT_ENCRYPTION_KEY after a restart refuses to start, saying what to
 * do (it used to start silently, answer no command and log delivery failures as a bare "Error").
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { errorSummary } from '../../src/domain/error-summary.js';

import { silentLogger } from '../../src/ops/index.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type FakeSlackOAuth, startFakeSlackOAuth } from '../fakes/slack/fake-slack-oauth.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { freePort } from '../support/redis-server.js';
import { roomyLimits, slackOAuthConfig, sqliteStoreUrl, stopBot } from './helpers/in-process-bot.js';

async function start(
  sim: Simulator,
  slack: FakeSlackOAuth,
  storeUrl: string,
  encryptionKey: string,
): Promise<RunningBot> {
  const config = slackOAuthConfig(sim, slack, {
    storeUrl,
    port: await freePort(),
    signingSecret: 'key-check-signing-secret',
    stateSecret: 'key-check-state-secret-0123456789abcdef',
    encryptionKey,
  });
  return startBot(config, silentLogger, 'test');
}

describe('FUNDBOT_ENCRYPTION_KEY is verified at start', () => {
  it('the same key starts again; another key refuses to start and says to restore the key', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const slack = closeAfterTest(await startFakeSlackOAuth());
    const storeUrl = sqliteStoreUrl('fundbot-key-check-');
    const key = randomBytes(32).toString('base64');

    let bot: RunningBot | undefined;
    onTestFinished(async () => {
      if (bot) await stopBot(bot);
    });
    bot = await start(sim, slack, storeUrl, key);
    await stopBot(bot);
    bot = await start(sim, slack, storeUrl, key);
    await stopBot(bot);
    bot = undefined;

    const wrong = start(sim, slack, storeUrl, randomBytes(32).toString('base64'));
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
