import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository, so the compiled files find node_modules as dist/ does in the image.
const outDir = join(repoRoot, '.build-check');
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the production build (what the Docker image runs)', () => {
  it('npm run build emits JavaScript that starts the demo with plain node, without tsx', async () => {
    const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(build.status, build.stdout + build.stderr).toBe(0);

    const emptyDir = mkdtempSync(join(tmpdir(), 'fundbot-built-'));
    const proc = spawn(process.execPath, [join(outDir, 'src/main.js')], {
      cwd: emptyDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let output = '';
    const banner = await new Promise<string>((resolve, reject) => {
      proc.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('demo on a simulated campaign')) resolve(output);
      });
      proc.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
      });
      proc.once('exit', (code) => reject(new Error(`the built entry point exited (${code}):\n${output}`)));
    });
    expect(banner).toMatch(/fundbot \d+\.\d+\.\d+: demo on a simulated campaign/);
    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.stdin.end(); // Ctrl+D
    expect(await exited).toBe(0);
    // Docker's HEALTHCHECK entry is compiled too, and runs with plain node (here with no config: it says so).
    const probe = spawnSync(process.execPath, [join(outDir, 'src/healthcheck.js')], {
      cwd: emptyDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    expect(probe.status).toBe(1);
    expect(probe.stderr).toContain('no bot to check');
    rmSync(emptyDir, { recursive: true, force: true });
  }, 150_000);
});
