import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, parseProjectKey } from '../../src/api/index.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe('npm run sim', () => {
  it('serves the demo campaign that a plain HTTP client reads with the printed key, and the client reads with budget figures filled in', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/simulator/cli.ts', '--port', '0', '--rate', '0'],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      },
    );
    child = proc;
    let out = '';
    const banner = await new Promise<string>((resolve, reject) => {
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('Ctrl+C')) resolve(out);
      });
      proc.once('exit', (code) => reject(new Error(`simulator exited (${code}):\n${out}`)));
    });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1];
    const key = /Project key, all scopes:\s+(svc_proj_\S+)/.exec(banner)?.[1];
    expect(url).toBeDefined();
    expect(key).toBeDefined();

    // What the printed curl line does.
    const raw = await fetch(`${url}/project/solar-kiosk/fundings?limit=5`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-ratelimit-day-limit')).toBe('10000');
    const body = (await raw.json()) as { data: unknown[]; meta: { limit: number } };
    expect(body.meta.limit).toBe(5);
    expect(body.data.length).toBeGreaterThan(0);

    const api = createApiClient({ baseUrl: url ?? '' });
    try {
      const projectKey = parseProjectKey(key ?? '');
      const project = await api.project('solar-kiosk', projectKey).get();
      expect(project.link_caption).toBe('solar-kiosk');
      const budget = api.budget(projectKey);
      expect(budget?.dayLimit).toBe(10_000);
      expect(budget?.dayRemaining).toBeLessThan(10_000);
      expect(budget?.minuteLimit).toBe(120);
      expect(budget?.dayResetAt).toBeGreaterThan(Date.now());
    } finally {
      await api.close();
    }

    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
