/**
 * Journey: `npm start` with no configuration at all, as the README's set-up promises: a demo on the built-in
 * platform simulator, notices in the terminal as supporters arrive, the commands typed on stdin, Ctrl+D quits.
 * Driven only from outside: an empty working directory, FUNDBOT_DEMO_RATE, stdin and stdout.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { waitUntil } from '../support/wait-until.js';
import {
  type BotProcess,
  killAllBots,
  outputTail,
  startBotProcess,
  tsxEntry,
} from './harness/bot-process.js';
import { isPng } from './harness/chat-driver.js';
import { journeyStep } from './harness/known-defects.js';

let dir: string;
let demo: BotProcess;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fundbot-journey-demo-'));
});
afterEach((context) => {
  if (context.task.result?.state === 'fail' && !context.task.fails && demo) {
    console.error(`--- the demo's output ---\n${outputTail(demo)}`);
  }
});
afterAll(() => {
  killAllBots();
  rmSync(dir, { recursive: true, force: true });
});

/** Types a command and resolves with what the demo printed after it, once `pattern` shows up there. */
async function typed(command: string, pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const from = demo.stdout().length;
  demo.writeLine(command);
  return waitUntil(
    `the demo's answer to ${command}`,
    () => {
      const after = demo.stdout().slice(from);
      return pattern.test(after) ? after : undefined;
    },
    { timeoutMs: timeoutMs },
  );
}

/** The supporter count /funding prints. */
async function supporterCount(): Promise<number> {
  const answer = await typed('/funding', /Supporters: [\d,]+/);
  return Number(/Supporters: ([\d,]+)/.exec(answer)?.[1]?.replace(/,/g, ''));
}

/** Supporters the demo announced: one per "New supporter" notice, N per "N new supporters" notice. */
function announcedSupporters(output: string): number {
  const single = output.match(/🎉 New supporter: /g)?.length ?? 0;
  const grouped = [...output.matchAll(/🎉 ([\d,]+) new supporters/g)].reduce(
    (sum, m) => sum + Number(m[1]?.replace(/,/g, '')),
    0,
  );
  return single + grouped;
}

describe('journey: npm start without configuration runs the demo in the terminal', () => {
  journeyStep(
    'starts the demo: the simulated campaign, and which commands to type',
    undefined,
    async () => {
      demo = startBotProcess({
        name: 'the demo',
        entry: tsxEntry,
        cwd: dir,
        // A busy campaign, as the README suggests, so that supporters arrive every few seconds.
        env: { FUNDBOT_DEMO_RATE: '240' },
      });
      const banner = await demo.waitForOutput(/Ctrl\+D/, 'the first screen', 30_000);
      expect(banner).toMatch(/fundbot \d+\.\d+\.\d+: demo on a simulated campaign/);
      expect(banner).toContain('notices appear below as supporters arrive');
      for (const command of ['/funding', '/rewards', '/supporters', '/blog', '/digest', '/status', '/help']) {
        expect(banner).toContain(command);
      }
      await demo.waitForOutput(/🎉 New supporter: /, 'the first supporter notice', 20_000);
    },
    60_000,
  );

  journeyStep(
    'notices keep appearing as supporters arrive: a dozen new supporters are announced within a poll or two',
    undefined,
    async () => {
      const startOutput = demo.stdout().length;
      const before = await supporterCount();
      // A dozen supporters arrive on the simulated campaign (the demo's own /funding says so)...
      await waitUntil('a dozen more supporters', async () => (await supporterCount()) >= before + 12, {
        timeoutMs: 40_000,
      });
      // ...and within a few seconds (the next polls) they are in the terminal.
      await waitUntil(
        'a dozen supporters announced',
        () => announcedSupporters(demo.stdout().slice(startOutput)) >= 12,
        { timeoutMs: 15_000 },
      );
    },
    70_000,
  );

  journeyStep(
    '/funding, /rewards, /supporters, /blog, /status and /help answer in the terminal',
    undefined,
    async () => {
      expect(await typed('/funding', /Funding: €[\d,]+ of €25,000/)).toMatch(/[▰▱]{10,20} \d+%/);
      expect(await typed('/rewards', /Rewards of /)).toContain('Thank-you postcard');
      expect(await typed('/supporters', /Latest supporters of /)).toMatch(/• .+ \(.+ ago\)/);
      expect(await typed('/blog', /Blog of /)).toContain('We are live!');
      expect(await typed('/status', /fundbot status for /)).toMatch(/last poll/);
      expect(await typed('/help', /What fundbot can do/)).toContain('/funding');
    },
    30_000,
  );

  journeyStep('/chart and /digest save the chart as a PNG and say where', undefined, async () => {
    for (const command of ['/chart', '/digest']) {
      const answer = await typed(command, /Funding chart/);
      const path = /(\/\S+\.png)/.exec(answer)?.[1];
      expect(path, `${command} names a PNG file`).toBeDefined();
      const file = path && existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
      expect(isPng(file), `${command} saved a PNG at ${path}`).toBe(true);
    }
  });

  journeyStep('Ctrl+D quits with exit code 0, and no API key was ever printed', undefined, async () => {
    demo.endInput();
    expect(await demo.exited()).toBe(0);
    expect(demo.output()).not.toMatch(/svc_proj_|svc_user_/);
  });
});
