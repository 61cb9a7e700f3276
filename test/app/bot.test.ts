import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { startFakeSlack } from '../fakes/slack/fake-slack.js';
import { slashCommand } from '../slack/helpers.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { freePort } from '../support/redis-server.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

const botToken = 'xoxb-1-e2e-bot-token';
const appToken = 'xapp-1-e2e-app-token';

describe('the configured bot, end to end', () => {
  it('checks the key, polls the platform, posts a new supporter in the subscribed Slack channel, answers /funding and reports health and metrics', async () => {
    // Generous limits: the test shortens the poll intervals, the budget logic is the benchmark's business.
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const slack = closeAfterTest(
      await startFakeSlack({
        botToken,
        users: [{ id: 'U0ADMIN', team_id: 'T0FAKE', name: 'lead', is_admin: true }],
      }),
    );
    const env = {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      SLACK_BOT_TOKEN: botToken,
      SLACK_APP_TOKEN: appToken,
    };
    const config = configOf(
      demoProjectConfig(sim, {
        slack: { enabled: true, mode: 'socket' },
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      }),
      env,
    );

    const bot = await startBotInTest(config, silentLogger, 'e2e', {
      slackApiUrl: slack.apiUrl,
      engineOptions: {
        targetIntervalsMs: { fundings: 200, project: 200, wall: 500, blog: 1_000, incentives: 1_000 },
      },
    });
    const fake = slack;

    // An admin subscribes the channel over Socket Mode.
    fake.sendSlashCommand(
      slashCommand({
        response_url: fake.responseUrl(),
        command: '/fundbot',
        text: `subscribe ${demoLinkCaption}`,
        user_id: 'U0ADMIN',
      }),
    );
    await fake.waitFor(() => fake.responses[0], 'the /subscribe answer', 10_000);
    // The composition root connected Slack's channel access: /subscribe asked before storing.
    expect(fake.callsTo('conversations.info').map((c) => c.args.channel)).toEqual(['C0CHAN']);

    // A supporter arrives on the platform; the notice reaches the channel, carrying its event id.
    sim.project(demoLinkCaption).addSupporter({ displayName: 'Ada E2E' });
    const notice = await fake.waitFor(
      () => fake.callsTo('chat.postMessage').find((c) => JSON.stringify(c.args).includes('Ada E2E')),
      'the supporter notice',
      15_000,
    );
    expect(notice.args.channel).toBe('C0CHAN');
    expect(JSON.stringify(notice.args.metadata)).toContain('event_id');

    // /funding answers from the engine's cache.
    fake.sendSlashCommand(
      slashCommand({ response_url: fake.responseUrl(), command: '/fundbot', text: 'funding' }),
    );
    const funding = await fake.waitFor(
      () => fake.responses.find((r) => JSON.stringify(r.body).includes('25,000')),
      'the /funding answer',
      10_000,
    );
    expect(funding.body.response_type).toBe('in_channel');

    const healthz = await fetch(`${bot.opsUrl}/healthz`);
    expect(healthz.status).toBe(200);
    const metrics = await (await fetch(`${bot.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/fundbot_polls_total\{[^}]*feed="fundings"[^}]*result="ok"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_notices_total\{[^}]*kind="supporters"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_api_budget_remaining\{[^}]*window="day"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/fundbot_command_duration_seconds_count\{[^}]*command="funding"/);
    expect(metrics).not.toContain('svc_proj_');
  }, 40_000);
});
