import { afterEach, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/app/start-bot.js';
import { parseConfig } from '../../src/config/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { recordingLogger } from '../slack/helpers.js';
import { freePort } from '../support/redis-server.js';

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
    const started = Date.now();
    let body = '';
    while (!body.includes('paused')) {
      if (Date.now() - started > 15_000) throw new Error(`/healthz never said paused: ${body}`);
      body = await (await fetch(`${opsUrl}/healthz`)).text();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body).toContain('river-cleanup');
    expect(body).toContain('rejected the API key');
    // The other project is polled all the while.
    const before = sim.requests.filter((r) => r.path.includes(`/${demoLinkCaption}`)).length;
    const until = Date.now() + 10_000;
    while (sim.requests.filter((r) => r.path.includes(`/${demoLinkCaption}`)).length <= before) {
      if (Date.now() > until) throw new Error('solar-kiosk is not polled');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(JSON.stringify(logger.records)).not.toContain(revoked);
    // Said once, by the engine, with what to do (the start-up check no longer says it a second time).
    const said = logger.records.filter(
      (r) => (r.level === 'warn' || r.level === 'error') && JSON.stringify(r).includes('river-cleanup'),
    );
    expect(said).toHaveLength(1);
    expect(JSON.stringify(said[0])).toContain('RIVER_CLEANUP_API_KEY');
  }, 60_000);
});
