import { describe, expect, it } from 'vitest';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { recordingLogger } from '../slack/helpers.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

describe('a project whose key is rejected at start-up', () => {
  it('is kept, paused with the reason in /healthz, while the bot runs the other project', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const revoked = sim.issueProjectKey('river-cleanup');
    sim.revokeKey(revoked);
    const config = configOf(
      {
        api: { baseUrl: sim.url },
        store: { url: 'memory:' },
        projects: [
          { linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' },
          { linkCaption: 'river-cleanup', apiKeyEnv: 'RIVER_CLEANUP_API_KEY' },
        ],
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      },
      { SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption), RIVER_CLEANUP_API_KEY: revoked },
    );
    const logger = recordingLogger();
    const bot = await startBotInTest(config, logger, 'keys', {
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
    // Said once, by the engine, with what to do (the start-up check no longer says it a second time).
    const said = logger.records.filter(
      (r) => (r.level === 'warn' || r.level === 'error') && JSON.stringify(r).includes('river-cleanup'),
    );
    expect(said).toHaveLength(1);
    expect(JSON.stringify(said[0])).toContain('RIVER_CLEANUP_API_KEY');
  }, 60_000);
});
