/**
 * Discord's REST client keeps its own HTTP stack: a file reaches Discord even when another
 * undici (another major version) holds the process-wide dispatcher slot, as happens when
 * @slack/socket-mode loads before discord.js. The slot is per process, so the check runs in
 * a fresh one (scripts/post-file-after-undici.ts) against the fake Discord.
 */
import { describe, expect, it } from 'vitest';
import { runInFreshProcess } from '../support/fresh-tsx-process.js';

describe('Discord REST and the process-wide HTTP dispatcher', () => {
  it('posts a 73 kB file after another undici took the process-wide slot', () => {
    expect(
      runInFreshProcess(new URL('./scripts/post-file-after-undici.ts', import.meta.url), 60_000),
    ).toEqual({
      ok: true,
      attachments: [
        expect.objectContaining({ filename: 'funding-solar-kiosk-2026-01-08.png', size: 73_000 }),
      ],
    });
  }, 70_000);
});
