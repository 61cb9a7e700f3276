import type { EngineOptions } from '../../../src/engine/index.js';
import { silentLogger } from '../../../src/ops/index.js';
import { demoLinkCaption, startSimulator } from '../../../src/simulator/index.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack/fake-slack.js';
import { slashCommand } from '../../slack/helpers.js';
import { closeAfterTest } from '../../support/close-after-test.js';
import { demoProjectConfig } from '../../support/demo-project-config.js';
import { freePort } from '../../support/redis-server.js';
import { configOf, roomyLimits, startBotInTest } from './in-process-bot.js';

const botToken = 'xoxb-1-e2e-bot-token';
const appToken = 'xapp-1-e2e-app-token';

/** The fake Slack of the whole-bot tests on Socket Mode: its workspace's admin is U0ADMIN ("lead"). */
export function startLeadsFakeSlack(): Promise<FakeSlack> {
  return startFakeSlack({
    botToken,
    users: [{ id: 'U0ADMIN', team_id: 'T0FAKE', name: 'lead', is_admin: true }],
  });
}

/**
 * fundbot on Slack Socket Mode watching the demo project, as the whole-bot tests configure it: the config file's
 * JSON (no digest, the health server on a free port; `sections` adds or replaces) and its environment.
 */
export async function slackSocketConfig(
  sim: { readonly url: string; issueProjectKey(linkCaption: string): string },
  sections: Readonly<Record<string, unknown>> = {},
): Promise<{ readonly json: Record<string, unknown>; readonly env: Record<string, string> }> {
  return {
    json: demoProjectConfig(sim, {
      slack: { enabled: true, mode: 'socket' },
      digest: { enabled: false },
      http: { enabled: true, port: await freePort() },
      ...sections,
    }),
    env: {
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
      SLACK_BOT_TOKEN: botToken,
      SLACK_APP_TOKEN: appToken,
    },
  };
}

/** Poll targets short enough that a supporter reaches the channel within a second or two. */
export const quickPolls = {
  targetIntervalsMs: { fundings: 200, project: 200, wall: 500, blog: 1_000, incentives: 1_000 },
} satisfies EngineOptions;

/**
 * The workspace admin sends `/fundbot <text>` over Socket Mode; resolves with the first answer that has `answer`
 * (any answer by default) within `timeoutMs`.
 */
export function adminCommand(fake: FakeSlack, text: string, answer = '', timeoutMs = 10_000) {
  fake.sendSlashCommand(
    slashCommand({ response_url: fake.responseUrl(), command: '/fundbot', text, user_id: 'U0ADMIN' }),
  );
  return fake.waitFor(
    () => fake.responses.find((r) => JSON.stringify(r.body).includes(answer)),
    `the answer to /fundbot ${text}`,
    timeoutMs,
  );
}

/**
 * The whole bot through startBot on Slack Socket Mode, polling quickly, against the simulator (roomy limits) and
 * the leads' fake Slack: all stopped when the test ends.
 */
export async function startSlackSocketBot() {
  const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
  const fake = closeAfterTest(await startLeadsFakeSlack());
  const { json, env } = await slackSocketConfig(sim);
  const bot = await startBotInTest(configOf(json, env), silentLogger, 'e2e', {
    slackApiUrl: fake.apiUrl,
    engineOptions: quickPolls,
  });
  return { sim, fake, bot };
}
