/**
 * A config file far outside a config's size or depth, through the real entry point: a
 * clear list of problems on stderr and exit 1, never a stack trace (both crashed loading
 * with "Maximum call stack size exceeded" before).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/spawned-bot.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const valid = {
  api: { baseUrl: 'http://127.0.0.1:9' },
  projects: [{ linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
};

/** Runs `src/main.ts` on `text` as its config file; resolves with the exit code and stderr. */
async function startWith(text: string): Promise<{ code: number | null; stderr: string }> {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-hostile-config-'));
  const path = join(dir, 'fundbot.config.json');
  writeFileSync(path, text);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      FUNDBOT_CONFIG: path,
      SOLAR_KIOSK_API_KEY: 'svc_proj_Q7m2Zr9Lk4Vx8Wp1Nt6Hs3Jd5Fb0',
    },
  });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  return { code, stderr };
}

describe('a hostile config file through the real entry point', () => {
  it('a 60 MB value: the file size and what to do, exit 1, no stack trace', async () => {
    const { code, stderr } = await startWith(
      JSON.stringify({ ...valid, locale: 'x'.repeat(60 * 1024 * 1024) }),
    );
    expect(code).toBe(1);
    expect(stderr).toContain('fundbot cannot start: 1 problem in the configuration');
    expect(stderr).toContain('the file is 60.0 MB; a config file is at most 1.0 MB');
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('nesting 100,000 deep: where, and what to do, exit 1, no stack trace', async () => {
    const deep = `${JSON.stringify(valid).slice(0, -1)},"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { code, stderr } = await startWith(deep);
    expect(code).toBe(1);
    expect(stderr).toContain('objects and arrays are nested more than 16 deep here');
    expect(stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
