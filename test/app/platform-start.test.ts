import { describe, expect, it } from 'vitest';
import { startBot } from '../../src/app/start-bot.js';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { startFakeSlack } from '../fakes/slack/fake-slack.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { freePort } from '../support/redis-server.js';
import { configOf } from './helpers/in-process-bot.js';

async function slackConfig(botToken: string) {
  const sim = closeAfterTest(await startSimulator());
  const config = configOf(
    demoProjectConfig(sim, {
      slack: { enabled: true, mode: 'socket' },
      digest: { enabled: false },
      http: { enabled: false },
    }),
    {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      SLACK_BOT_TOKEN: botToken,
      SLACK_APP_TOKEN: 'xapp-1-start-app-token',
    },
  );
  return config;
}

describe('a chat platform failing at start-up', () => {
  it('Slack not reachable: says so, names no wrong variable, and does not blame the token', async () => {
    const config = await slackConfig('xoxb-1-start-bot-token');
    const closed = `http://127.0.0.1:${await freePort()}/api/`;
    const error = await startBot(config, silentLogger, 'start', { slackApiUrl: closed }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^could not reach Slack \(ECONNREFUSED\): check DNS, the network/);
    expect(error?.message).toContain('SLACK_BOT_TOKEN was not checked');
    expect(error?.message).not.toContain('FUNDBOT_SLACK');
  }, 30_000);

  it('Slack rejecting the token: names SLACK_BOT_TOKEN and where to get a new one', async () => {
    const config = await slackConfig('xoxb-1-wrong-bot-token');
    const slack = closeAfterTest(await startFakeSlack({ botToken: 'xoxb-1-right-bot-token' }));
    const error = await startBot(config, silentLogger, 'start', { slackApiUrl: slack.apiUrl }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /^Slack rejected SLACK_BOT_TOKEN \(invalid_auth\): put the Bot User OAuth Token/,
    );
    expect(error?.message).not.toContain('FUNDBOT_SLACK');
  }, 30_000);
});
