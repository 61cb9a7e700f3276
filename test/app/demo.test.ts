import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartMs, waitUntil } from '../support/wait-until.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** Resolves with all output so far once `pattern` appears in it; rejects if the process exits first. */
function waitForOutput(
  proc: ChildProcessWithoutNullStreams,
  pattern: RegExp,
  output: { text: string },
  timeoutMs = 40_000,
): Promise<string> {
  return waitUntil(
    `the demo to print ${pattern}`,
    () => {
      if (pattern.test(output.text)) return output.text;
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(
          `demo exited (${proc.exitCode ?? proc.signalCode}) before printing ${pattern}:\n${output.text}`,
        );
      return undefined;
    },
    { timeoutMs },
  );
}

// Each test starts the entry point (processStartMs), then waits for what it checks.
describe('npm start without configuration', { timeout: processStartMs + 45_000 }, () => {
  it('runs the demo: prints a supporter notice and answers /funding, then quits on end of input', async () => {
    // An empty working directory: no ./fundbot.config.json, and no FUNDBOT_CONFIG (naming a missing file is an error).
    const emptyDir = mkdtempSync(join(tmpdir(), 'fundbot-demo-'));
    const proc = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), join(repoRoot, 'src/main.ts')],
      {
        cwd: emptyDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          FUNDBOT_DEMO_RATE: '240',
        },
      },
    );
    child = proc;
    const output = { text: '' };
    proc.stdout.on('data', (chunk: Buffer) => {
      output.text += chunk.toString('utf8');
    });
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });

    await waitForOutput(proc, /demo on a simulated campaign/, output, processStartMs);
    await waitForOutput(proc, /New supporter: .+\n/, output);

    proc.stdin.write('/funding\n');
    const afterFunding = await waitForOutput(proc, /Funding: €[\d,]+ of €25,000/, output);
    expect(afterFunding).toMatch(/Supporters: \d+/);
    // The bar once, on its own line (issue 23: a Progress field repeated it).
    expect(afterFunding).toMatch(/^[▰▱]{20} \d+%$/m);

    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/svc_proj_|svc_user_/);
    expect(output.text).not.toMatch(/svc_proj_|svc_user_/);
  });
});

describe('npm start with a broken configuration', { timeout: processStartMs }, () => {
  it('lists every problem with what to do and exits 1 without starting anything', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'fundbot-config-'));
    const path = join(dir, 'fundbot.config.json');
    writeFileSync(
      path,
      JSON.stringify({
        api: { baseUrl: 'http://127.0.0.1:9' },
        projects: [{ linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
        discord: { enabled: true },
        digest: { time: '25:99', timeZone: 'Mars/Olympus' },
      }),
    );
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', FUNDBOT_CONFIG: path },
    });
    child = proc;
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toContain('SOLAR_KIOSK_API_KEY');
    expect(stderr).toContain('DISCORD_TOKEN');
    expect(stderr).toContain('4 problems');
    expect(stderr).toMatch(/digest\.time: .*HH:MM/);
    expect(stderr).toMatch(/digest\.timeZone: .*IANA/);
  });
});
