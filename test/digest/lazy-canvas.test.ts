/**
 * The chart's native canvas (@napi-rs/canvas) is loaded by the first chart drawn, not at the bot's start:
 * its load cost each process 40-80 ms of CPU and 0.3-0.6 s of wall time before its first poll (issue 33).
 * What a process has loaded is per process, so the check runs in a fresh one.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('the chart canvas', () => {
  it('is not loaded with the bot, and is loaded by the first chart drawn', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./scripts/canvas-at-start.ts', import.meta.url))],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        timeout: 120_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { atStart: boolean; afterChart: boolean; pngBytes: number };
    expect(result).toMatchObject({ atStart: false, afterChart: true });
    expect(result.pngBytes).toBeGreaterThan(1_000);
  }, 130_000);
});
