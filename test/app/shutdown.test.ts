import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { demoProjectConfig } from '../support/demo-project-config.js';
import { healthzAnswers } from '../support/healthz.js';
import { freePort } from '../support/redis-server.js';
import { processStartMs } from '../support/wait-until.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
let child: ChildProcessWithoutNullStreams | undefined;
let sim: Simulator | undefined;
let dir: string | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Starts `npm start` (src/main.ts) on a config file; resolves once it logged that it runs. */
async function startEntryPoint(store: (dir: string) => string) {
  sim = await startSimulator({ limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } } });
  dir = mkdtempSync(join(tmpdir(), 'fundbot-shutdown-'));
  const configPath = join(dir, 'fundbot.config.json');
  const opsPort = await freePort();
  writeFileSync(
    configPath,
    JSON.stringify(
      demoProjectConfig(sim, {
        store: { url: store(dir) },
        digest: { enabled: false },
        http: { enabled: true, port: opsPort },
      }),
    ),
  );
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      FUNDBOT_CONFIG: configPath,
      SOLAR_KIOSK_API_KEY: sim.issueProjectKey(demoLinkCaption),
    },
  });
  child = proc;
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('"fundbot is running"')) {
        proc.stdout.off('data', check);
        proc.off('exit', onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => reject(new Error(`exited (${code}) before running:\n${output}`));
    proc.stdout.on('data', check);
    proc.once('exit', onExit);
  });
  return { proc, output: () => output, opsUrl: `http://127.0.0.1:${opsPort}` };
}

/** Sends SIGTERM; resolves with the exit code and how long the process took to exit. */
function terminate(proc: ChildProcessWithoutNullStreams): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    proc.once('exit', (code) => resolve({ code, ms: Date.now() - started }));
    proc.kill('SIGTERM');
  });
}

// Each test starts the bot, then waits up to 30 s for what it checks.
describe('SIGTERM on the real entry point', { timeout: processStartMs + 40_000 }, () => {
  it('finishes what is in flight and exits 0 well within Docker 10 s', async () => {
    const { proc, output } = await startEntryPoint((d) => `sqlite://${join(d, 'state.sqlite')}`);
    // Wait for the engine's first polls (not a fixed time) so there is state to flush.
    const fromStart = sim?.requests.length ?? 0;
    await vi.waitFor(
      () => {
        const paths = (sim?.requests ?? []).slice(fromStart).map((r) => r.path);
        expect(paths).toContain(`/project/${demoLinkCaption}/fundings`);
        expect(paths).toContain(`/project/${demoLinkCaption}`);
      },
      { timeout: 15_000, interval: 20 },
    );
    const { code, ms } = await terminate(proc);
    console.info(`SIGTERM shutdown (SQLite store): exit ${code} after ${ms} ms`);
    expect(code, output()).toBe(0);
    expect(ms).toBeLessThan(8_500);
    expect(output()).toContain('"shutdown complete"');
  });

  it('with a Redis that is not there: /healthz says so within 30 s, and SIGTERM still exits within the 8 s budget', async () => {
    const port = await freePort(); // nothing listens there
    const { proc, output, opsUrl } = await startEntryPoint(() => `redis://127.0.0.1:${port}`);
    const health = await healthzAnswers(opsUrl, 503, { timeoutMs: 30_000, everyMs: 200 }).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n${output()}`);
      },
    );
    expect(health.status, output()).toBe(503);
    expect(health.body).toContain(`Redis at 127.0.0.1:${port} fails since`);
    console.info(`Redis absent at start: /healthz 503 ${health.ms} ms after "fundbot is running"`);
    expect(output()).toContain('the store does not answer');
    const { code, ms } = await terminate(proc);
    console.info(`SIGTERM shutdown (Redis absent): exit ${code} after ${ms} ms`);
    expect(ms, output()).toBeLessThan(8_500);
    expect(code, output()).toBe(0); // nothing was written, so nothing was lost
  });
});
