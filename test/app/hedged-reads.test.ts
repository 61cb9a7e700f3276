import { describe, expect, it } from 'vitest';
import type { RunningBot } from '../../src/app/start-bot.js';
import { silentLogger } from '../../src/ops/index.js';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { configOf, startBotInTest } from './helpers/in-process-bot.js';

async function startBotWith(sim: Simulator, api: Record<string, unknown>): Promise<RunningBot> {
  const config = configOf(
    {
      api: { baseUrl: sim.url, timeoutMs: 60_000, ...api },
      store: { url: 'memory:' },
      projects: [{ linkCaption: demoLinkCaption, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
      digest: { enabled: false },
      http: { enabled: true, port: await freePort() },
    },
    { SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption) },
  );
  return startBotInTest(config, silentLogger, 'test');
}

/** Resolves once /metrics counts a successful fundings poll (the poll's own event, read where operators read it). */
async function firstFundingsPoll(running: RunningBot): Promise<void> {
  const okPoll = /fundbot_polls_total\{[^}]*feed="fundings"[^}]*result="ok"[^}]*\} [1-9]/;
  // As long as the test may take (20 s): without the copy, the held read outlasts it.
  await waitUntil(
    'a successful fundings poll in /metrics',
    async () => okPoll.test(await (await fetch(`${running.opsUrl}/metrics`)).text()),
    { timeoutMs: 20_000, everyMs: 50 },
  );
}

describe('the bot copies a slow read (api.hedgeAfterMs)', () => {
  it('a fundings read the platform holds for 50 s gets a copy: the first poll ends without waiting for it', async () => {
    const sim = closeAfterTest(await startSimulator());
    sim.faults.slow({ path: '/fundings', n: 1, delayMs: 50_000 });
    // Without the copy this waits for the held answer (50 s, past the test's timeout).
    await firstFundingsPoll(await startBotWith(sim, { hedgeAfterMs: 300 }));
    // Two reads of the same page: the held one (given up once the copy answered) and its copy. The simulator logs
    // a request when it ends, and the held one ends when the bot gives it up, just after the poll: waited for.
    const fundingsReads = () =>
      sim.requests.filter((r) => r.path.endsWith('/fundings')).map((r) => r.fault ?? 'copy');
    await waitUntil('the held read to be given up', () => fundingsReads().includes('slow'), {
      timeoutMs: 5_000,
      everyMs: 20,
    });
    expect(fundingsReads().sort()).toEqual(['copy', 'slow']);
  }, 20_000);

  it('hedgeAfterMs 0 switches copies off: the held read is the only one sent', async () => {
    const sim = closeAfterTest(await startSimulator());
    sim.faults.slow({ path: '/fundings', n: 1, delayMs: 1_000 });
    await firstFundingsPoll(await startBotWith(sim, { hedgeAfterMs: 0 }));
    expect(sim.requests.filter((r) => r.path.endsWith('/fundings')).map((r) => r.fault)).toEqual(['slow']);
  }, 20_000);
});
