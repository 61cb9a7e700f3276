/**
 * The environment of a real host holds many `*_FILE` variables that are not fundbot's
 * (Terraform's, AWS's, OpenSSL's). Through the real entry point: a missing file named by
 * one of them stops nothing, and a file named by one is never opened (a named pipe would
 * block a read forever); the project's own key, given as a file, is read.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { demoLinkCaption, startSimulator } from '../../src/simulator/index.js';
import { compiledEntryForFile } from '../journeys/harness/compiled-entry.js';
import { closeAfterTest } from '../support/close-after-test.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { waitUntil } from '../support/wait-until.js';
import { spawnBot } from './helpers/spawned-bot.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

describe('*_FILE variables of other tools, through the real entry point', () => {
  it('starts with a missing Terraform file and an AWS credentials pipe in the environment, reading only its own key file', async () => {
    const sim = closeAfterTest(
      await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } }),
    );
    const dir = mkdtempSync(join(tmpdir(), 'fundbot-file-vars-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'solar-kiosk.key');
    writeFileSync(keyFile, `${sim.issueProjectKey(demoLinkCaption)}\n`);
    const pipe = join(dir, 'aws-credentials');
    const fifo = spawnSync('mkfifo', [pipe]);
    expect(fifo.status, 'mkfifo is needed for this test').toBe(0);

    const bot = await spawnBot({
      entry: compiledEntry(),
      config: demoProjectConfig(sim, {
        digest: { enabled: false },
        http: { enabled: false },
      }),
      env: {
        SOLAR_KIOSK_API_KEY_FILE: keyFile,
        TF_CLI_CONFIG_FILE: join(dir, 'missing.terraformrc'),
        // Opening a pipe without a writer blocks: a start that reads it never gets to "running".
        AWS_SHARED_CREDENTIALS_FILE: pipe,
      },
    });
    // The key from its file works: a list (which needs the key) was read with it.
    const platform = sim;
    await waitUntil('a fundings read with the project key', () =>
      platform.requests.find(
        (r) => r.path.endsWith('/fundings') && r.credential === 'project' && r.status === 200,
      ),
    );
    expect(bot.output()).not.toContain('TF_CLI_CONFIG_FILE');
    expect(bot.output()).not.toContain('AWS_SHARED_CREDENTIALS_FILE');
    expect(await bot.stop()).toBe(0);
  }, 60_000);
});
