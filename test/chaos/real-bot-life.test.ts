/**
 * The real-bot seeds' process life (real-bot/bot-life.ts): a pause that hits the new process while it starts is
 * over after its own length. Chained behind the restart, it was continued only when the restart's wait for
 * "fundbot is running" gave up (90 s): real-bot seed 1's 1 s pause stopped its bot for 80 s under load.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { botLife } from './real-bot/bot-life.js';
import type { Disruption } from './world/world-record.js';

const appDir = mkdtempSync(join(tmpdir(), 'fundbot-bot-life-'));
afterAll(() => rmSync(appDir, { recursive: true, force: true }));

/** A stand-in for the bot that takes 1.5 s to say it runs, then idles. */
function writeSlowStarter(): void {
  mkdirSync(join(appDir, 'dist', 'src'), { recursive: true });
  writeFileSync(
    join(appDir, 'dist', 'src', 'main.js'),
    `setTimeout(() => console.log(JSON.stringify({ level: 'info', msg: 'fundbot is running' })), 1500);
setInterval(() => {}, 1000);`,
  );
}

describe('the real-bot process life', () => {
  it('continues a pause that hit a starting process after its own length, not after the start gave up', async () => {
    writeSlowStarter();
    const disruptions: Disruption[] = [];
    const notes: string[] = [];
    const life = botLife({
      entry: { kind: 'compiled', appDir },
      cwd: appDir,
      env: {},
      disruptions,
      notes,
      connection: () => async () => {},
    });
    try {
      await life.start();
      life.kill(100);
      // The new process is starting (it says it runs 1.5 s after it began): pause it for half a second.
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(life.name).toBe('bot#2');
      life.pause(500);
      const began = Date.now();
      await life.steady();
      expect(Date.now() - began).toBeLessThan(10_000);
      expect(notes.filter((n) => n.startsWith('restart:'))).toEqual([]);
    } finally {
      await life.stop();
    }
  }, 30_000);
});
