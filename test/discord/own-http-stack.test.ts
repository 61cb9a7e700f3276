/**
 * Discord's REST client keeps its own HTTP stack: a file reaches Discord even when another
 * undici (another major version) holds the process-wide dispatcher slot, as happens when
 * @slack/socket-mode loads before discord.js. The slot is per process, so the check runs in
 * a fresh one (scripts/post-file-after-undici.ts) against the fake Discord.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('Discord REST and the process-wide HTTP dispatcher', () => {
  it('posts a 73 kB file after another undici took the process-wide slot', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./scripts/post-file-after-undici.ts', import.meta.url))],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        timeout: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      attachments: [
        expect.objectContaining({ filename: 'funding-solar-kiosk-2026-01-08.png', size: 73_000 }),
      ],
    });
  }, 70_000);
});
