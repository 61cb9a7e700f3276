/**
 * The daily thread end to end: the configured bot polls the simulator, an admin turns
 * the thread on with `/fundbot thread on` over Socket Mode, and new supporters on the
 * platform reach the fake Slack as replies under one parent message of the day.
 */
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { startFakeSlack } from '../fakes/slack/fake-slack.js';
import { slashCommand } from '../slack/helpers.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { hostileTexts } from '../support/hostile-text.js';
import { freePort } from '../support/redis-server.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

const botToken = 'xoxb-1-e2e-bot-token';
const appToken = 'xapp-1-e2e-app-token';

describe('the daily thread, end to end on the simulator', () => {
  it('/fundbot thread on: supporters from the platform become replies under one parent of the day, names inert', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const slack = closeAfterTest(
      await startFakeSlack({
        botToken,
        users: [{ id: 'U0ADMIN', team_id: 'T0FAKE', name: 'lead', is_admin: true }],
      }),
    );
    const config = configOf(
      demoProjectConfig(sim, {
        slack: { enabled: true, mode: 'socket' },
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      }),
      {
        SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
        SLACK_BOT_TOKEN: botToken,
        SLACK_APP_TOKEN: appToken,
      },
    );
    await startBotInTest(config, silentLogger, 'e2e', {
      slackApiUrl: slack.apiUrl,
      engineOptions: {
        targetIntervalsMs: { fundings: 200, project: 200, wall: 500, blog: 1_000, incentives: 1_000 },
      },
    });
    const fake = slack;
    const run = async (text: string, answer: string) => {
      fake.sendSlashCommand(
        slashCommand({ response_url: fake.responseUrl(), command: '/fundbot', text, user_id: 'U0ADMIN' }),
      );
      return fake.waitFor(
        () => fake.responses.find((r) => JSON.stringify(r.body).includes(answer)),
        `the answer to /fundbot ${text}`,
        10_000,
      );
    };
    await run(`subscribe ${demoLinkCaption} supporters`, 'Solar');
    const on = await run('thread on', 'Daily thread on');
    expect(on.body['response_type']).not.toBe('in_channel');

    // The parent names the latest supporter too: replies are the posts with a thread_ts.
    const replies = () => fake.callsTo('chat.postMessage').filter((c) => c.args['thread_ts'] !== undefined);
    sim.project(demoLinkCaption).addSupporter({ displayName: 'Ada Thread' });
    const first = await fake.waitFor(
      () => replies().find((c) => JSON.stringify(c.args).includes('Ada Thread')),
      'the first reply',
      15_000,
    );
    sim.project(demoLinkCaption).addSupporter({ displayName: hostileTexts.slackChannel });
    const second = await fake.waitFor(
      () => replies().find((c) => JSON.stringify(c.args).includes('&lt;!channel&gt;')),
      'the hostile reply',
      15_000,
    );
    const parents = fake.callsTo('chat.postMessage').filter((c) => c.args['thread_ts'] === undefined);
    expect(parents).toHaveLength(1);
    expect(String(parents[0]?.args['text'])).toContain('Supporters on');
    const parentTs = (fake.messages.get('C0CHAN') ?? []).find((m) => m.thread_ts === undefined)?.ts;
    expect(first.args['thread_ts']).toBe(parentTs);
    expect(second.args['thread_ts']).toBe(parentTs);
    expect(String(second.args['text'])).not.toContain('<!channel>');
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);
  }, 40_000);
});
