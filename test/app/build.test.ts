import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledAppDir } from '../support/compiled-app.js';
import { sharedCompiledApp } from '../support/shared-compiled-app.js';

// `npm run build` (tsc -p tsconfig.build.json) once per test run, shared with the journeys that start the compiled
// entry; it fails here with tsc's output when the build fails. It emits without type checking (--noCheck): a type
// error in the build's files fails `npm run typecheck`, which checks them with the same options.
let app: CompiledAppDir;
beforeAll(async () => {
  app = await sharedCompiledApp();
}, 240_000);

describe('the production build (what the Docker image runs)', () => {
  it('npm run build emits JavaScript that starts the demo with plain node, without tsx', async () => {
    const outDir = join(app.appDir, 'dist');

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
