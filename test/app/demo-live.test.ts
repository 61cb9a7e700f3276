/**
 * The demo keeps the promise of its first screen, through the real entry point: notices
 * appear as supporters arrive (the console channel is paced `live`; `auto` held everything
 * after the 4th supporter for about 7 minutes), and /chart and /digest save their chart as
 * a PNG file and print its path (they printed only the alt text).
 */
import { readFileSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processStartMs, waitUntil } from '../support/wait-until.js';
import { spawnBot } from './helpers/spawned-bot.js';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Supporter notices printed so far: one per supporter, or one for a burst of them. */
function supporterNotices(screen: string): number {
  return screen.match(/🎉 (New supporter: |\d+ new supporters)/g)?.length ?? 0;
}

describe('the demo through the real entry point', () => {
  it('shows supporters as they arrive, past the fourth, and saves /chart and /digest as PNG files', async () => {
    // `npm start` in an empty directory (no config, no tokens): the demo; its charts go to the temp directory.
    const bot = await spawnBot({
      cwd: 'dir',
      readyMessage: null,
      env: { FUNDBOT_DEMO_RATE: '300' },
    });
    const demo = bot;
    const screen = () => demo.output();
    const proc = demo.proc;
    await waitUntil('the demo banner', () => screen().includes('demo on a simulated campaign'), {
      timeoutMs: processStartMs,
    });
    expect(screen()).toMatch(
      /\/chart and \/digest save the funding chart as a PNG in .+fundbot-demo and print its path/,
    );
    // Live pacing: well past the 4 notices `auto` lets through in an hour, within a minute.
    await waitUntil('more than 6 supporter notices on screen', () => supporterNotices(screen()) > 6, {
      timeoutMs: 60_000,
    });
    expect(screen()).not.toMatch(/batched|Batch/);

    for (const command of ['/chart', '/digest']) {
      const before = screen().length;
      proc.stdin.write(`${command}\n`);
      const path = await waitUntil(
        `the PNG path of ${command}`,
        () => /🖼 [^\n]*: (\/[^\n]+\.png)\n/.exec(screen().slice(before))?.[1],
        { timeoutMs: 30_000 },
      );
      expect(path).toContain('fundbot-demo');
      expect(readFileSync(path).subarray(0, 8)).toEqual(pngSignature);
      rmSync(path);
    }

    proc.stdin.end();
    expect(await demo.exited).toBe(0);
  }, 120_000);
});
