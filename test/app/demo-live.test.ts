/**
 * The demo keeps the promise of its first screen, through the real entry point: notices
 * appear as supporters arrive (the console channel is paced `live`; `auto` held everything
 * after the 4th supporter for about 7 minutes), and /chart and /digest save their chart as
 * a PNG file and print its path (they printed only the alt text).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, repoRoot } from './helpers/spawned-bot.js';

let child: ChildProcessWithoutNullStreams | undefined;
let dir: string | undefined;

afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `npm start` in an empty directory (no config, no tokens): the demo, its screen collected. */
function startDemo(): { proc: ChildProcessWithoutNullStreams; screen: () => string } {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-demo-live-'));
  const proc = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), join(repoRoot, 'src/main.ts')],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        TMPDIR: dir,
        // A busy campaign: many supporters a minute, as on a launch day.
        FUNDBOT_DEMO_RATE: '300',
      },
    },
  );
  child = proc;
  let text = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { proc, screen: () => text };
}

/** Supporter notices printed so far: one per supporter, or one for a burst of them. */
function supporterNotices(screen: string): number {
  return screen.match(/🎉 (New supporter: |\d+ new supporters)/g)?.length ?? 0;
}

describe('the demo through the real entry point', () => {
  it('shows supporters as they arrive, past the fourth, and saves /chart and /digest as PNG files', async () => {
    const { proc, screen } = startDemo();
    await eventually('the demo banner', () =>
      screen().includes('demo on a simulated campaign') ? true : undefined,
    );
    expect(screen()).toMatch(
      /\/chart and \/digest save the funding chart as a PNG in .+fundbot-demo and print its path/,
    );
    // Live pacing: well past the 4 notices `auto` lets through in an hour, within a minute.
    await eventually(
      'more than 6 supporter notices on screen',
      () => (supporterNotices(screen()) > 6 ? true : undefined),
      60_000,
    );
    expect(screen()).not.toMatch(/batched|Batch/);

    for (const command of ['/chart', '/digest']) {
      const before = screen().length;
      proc.stdin.write(`${command}\n`);
      const path = await eventually(
        `the PNG path of ${command}`,
        () => /🖼 [^\n]*: (\/[^\n]+\.png)\n/.exec(screen().slice(before))?.[1],
        30_000,
      );
      expect(path).toContain('fundbot-demo');
      expect(readFileSync(path).subarray(0, 8)).toEqual(pngSignature);
    }

    const exited = new Promise<number | null>((resolve) => proc.once('exit', resolve));
    proc.stdin.end();
    expect(await exited).toBe(0);
  }, 120_000);
});
