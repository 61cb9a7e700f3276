import { afterEach, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { parseConfig } from '../../src/config/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { recordingLogger } from '../slack/helpers.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';

let sim: Simulator | undefined;
let bot: RunningBot | undefined;

afterEach(async () => {
  for (const step of bot?.shutdownSteps ?? []) await step.stop();
  bot = undefined;
  await sim?.close();
});

describe('a project whose key is rejected at start-up', () => {
  it('is kept, paused with the reason in /healthz, while the bot runs the other project', async () => {
    sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
    const revoked = sim.issueProjectKey('river-cleanup');
    sim.revokeKey(revoked);
    const parsed = parseConfig(
      JSON.stringify({
        api: { baseUrl: sim.url },
        store: { url: 'memory:' },
        projects: [
          { linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
          { linkCaption: 'river-cleanup', apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
        ],
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      }),
      {
        env: { SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption), RIVER_CLEANUP_API_KEY: revoked },
        source: 'test.json',
      },
    );
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const logger = recordingLogger();
    bot = await startBot(parsed.config, logger, 'keys', {
      engineOptions: {
        targetIntervalsMs: { fundings: 200, project: 200, wall: 200, blog: 200, incentives: 200 },
      },
    });
    const opsUrl = bot.opsUrl ?? '';
    let body = '';
    await waitUntil(
      '/healthz to say paused',
      async () => {
        body = await (await fetch(`${opsUrl}/healthz`)).text();
        return body.includes('paused');
      },
      { timeoutMs: 15_000, everyMs: 100 },
    );
    expect(body).toContain('river-cleanup');
    expect(body).toContain('rejected the API key');
    // The other project is polled all the while.
    const before = sim.requests.filter((r) => r.path.includes(`/${demoLinkCaption}`)).length;
    const polls = () => sim!.requests.filter((r) => r.path.includes(`/${demoLinkCaption}`)).length;
    await waitUntil('solar-kiosk to be polled', () => polls() > before, { timeoutMs: 10_000, everyMs: 50 });
    expect(JSON.stringify(logger.records)).not.toContain(revoked);
  }, 60_000);
});
