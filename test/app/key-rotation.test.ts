import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { recordingLogger } from '../slack/helpers.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { healthzAnswers } from '../support/healthz.js';
import { freePort } from '../support/redis-server.js';
import { waitUntil } from '../support/wait-until.js';
import { configOf, roomyLimits, startBotInTest } from './helpers/in-process-bot.js';

describe('a key file (SOLAR_KIOSK_API_KEY_FILE) replaced while the bot runs', () => {
  it('is validated and swapped in without a restart: a revoked key turns /healthz 503, the new file brings it back', async () => {
    const sim = closeAfterTest(await startSimulator({ limits: roomyLimits }));
    const dir = mkdtempSync(join(tmpdir(), 'fundbot-keys-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'solar-kiosk.key');
    const oldKey = sim.issueProjectKey(demoLinkCaption);
    writeFileSync(keyFile, `${oldKey}\n`);
    const config = configOf(
      demoProjectConfig(sim, {
        digest: { enabled: false },
        http: { enabled: true, port: await freePort() },
      }),
      { SOLAR_KIOSK_API_KEY_FILE: keyFile },
    );
    const logger = recordingLogger();
    const bot = await startBotInTest(config, logger, 'keys', {
      keyFileIntervalMs: 100,
      engineOptions: {
        targetIntervalsMs: { fundings: 200, project: 200, wall: 200, blog: 200, incentives: 200 },
      },
    });
    const opsUrl = bot.opsUrl ?? '';
    await healthzAnswers(opsUrl, 200, { timeoutMs: 10_000 });

    // A file with garbage is refused; the key in use stays.
    writeFileSync(keyFile, 'Bearer not-a-key\n');
    await waitUntil(
      'the invalid key file to be reported',
      () => logger.records.some((r) => r.msg?.includes('does not hold a valid Project API key')),
      { timeoutMs: 10_000, everyMs: 50 },
    );
    expect((await healthzAnswers(opsUrl, 200, { timeoutMs: 1_000 })).body).toContain('"ok"');

    sim.revokeKey(oldKey);
    const down = await healthzAnswers(opsUrl, 503, { timeoutMs: 30_000 });
    expect(down.body).toContain('poll:solar-kiosk');

    const newKey = sim.issueProjectKey(demoLinkCaption);
    writeFileSync(keyFile, `${newKey}\n`);
    await healthzAnswers(opsUrl, 200, { timeoutMs: 60_000 });
    expect(logger.records.some((r) => r.msg?.includes('the key of solar-kiosk was replaced'))).toBe(true);
    expect(JSON.stringify(logger.records)).not.toContain(newKey);
    expect(JSON.stringify(logger.records)).not.toContain(oldKey);
  }, 120_000);
});
