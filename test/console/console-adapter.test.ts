import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  consoleChannel,
  createConsolePoster,
  streamPrint,
} from '../../src/adapters/console/console-poster.js';
import { createConsoleAdapter } from '../../src/adapters/console/create-console-adapter.js';
import { renderConsoleMessage, terminalSafe } from '../../src/adapters/console/render-console-message.js';
import { startPipeline } from '../delivery/pipeline-harness.js';
import { buildIncentive, buildProject } from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { hostileTexts } from '../support/hostile-text.js';

/** Feeds lines into a console adapter and returns everything it wrote once the input ended. */
async function session(lines: string[], fixture = createCoreFixture(), canAdminister = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (c: Buffer) => chunks.push(c));
  const adapter = createConsoleAdapter({ core: fixture.core, input, output, canAdminister });
  const done = adapter.start();
  input.end(`${lines.join('\n')}\n`);
  await done;
  return {
    text: Buffer.concat(chunks)
      .toString('utf8')
      .replace(/[\u00a0\u202f]/g, ' '),
    fixture,
  };
}

describe('console adapter', () => {
  test('typed /funding comes back as readable terminal text', async () => {
    const { text } = await session(['/funding']);
    expect(text).toContain(
      'Solar Kiosk\n  https://platform.example/solar-kiosk\nA kiosk that runs on sunshine',
    );
    expect(text).toContain('Funding: €12,345 of €20,000');
    // The bar once, drawn from the progress (never again as a field).
    expect(text).toContain('▰▰▰▰▰▰▰▰▰▰▰▰▱▱▱▱▱▱▱▱ 61%');
    expect(text.match(/▰/g)).toHaveLength(12);
    expect(text).toContain('→ Support the project: https://platform.example/solar-kiosk');
    expect(text).toContain('— Updated now');
  });

  test('several lines are answered in order, with arguments parsed from the definitions', async () => {
    const fixture = createCoreFixture({
      projects: [{ project: buildProject(), rewards: [buildIncentive()] }],
    });
    const { text } = await session(
      ['/reward 12', '/subscribe solar-kiosk wall blog', '/subscriptions'],
      fixture,
    );
    const reward = text.indexOf('Sunny mug');
    const subscribed = text.indexOf('This channel now gets wall and blog notices of Solar Kiosk.');
    const listed = text.indexOf('• Solar Kiosk: wall (live) and blog (live)');
    expect(reward).toBeGreaterThanOrEqual(0);
    expect(subscribed).toBeGreaterThan(reward);
    expect(listed).toBeGreaterThan(subscribed);
    expect(await fixture.subscriptions.forProject('solar-kiosk', 'wall')).toEqual([
      expect.objectContaining({ channel: consoleChannel, createdBy: 'console' }),
    ]);
  });

  test('mistakes get a clear private error and the REPL keeps going', async () => {
    const { text } = await session(['/reward', 'funding', '/teleport', '/help']);
    expect(text).toContain('(only you) ✖ That did not work\nMissing id. Usage: /reward <id> [project]');
    expect(text).toContain('Commands start with a slash');
    expect(text).toContain('There is no command "teleport"');
    expect(text).toContain('What fundbot can do');
  });

  test('canAdminister false is passed on and refused by the core', async () => {
    const { text } = await session(['/subscribe solar-kiosk'], createCoreFixture(), false);
    expect(text).toContain('Only an administrator can do this.');
  });

  test('exit ends the session', async () => {
    const { text } = await session(['/help', 'exit', '/funding']);
    expect(text).toContain('What fundbot can do');
    expect(text).not.toContain('Solar Kiosk');
  });

  test('the console poster renders notices; the delivery pipeline posts to the terminal channel', async () => {
    const output = new PassThrough();
    const chunks: Buffer[] = [];
    output.on('data', (c: Buffer) => chunks.push(c));
    const h = await startPipeline({ posters: [createConsolePoster(streamPrint(output))] });
    await h.subscribe(consoleChannel, ['supporters']);
    await h.pacing.setKind(consoleChannel, 'supporters', { mode: 'live' });
    const event = buildEvent.supporter();
    await h.offer(event);
    expect(await h.offer(event)).toEqual([event.id]);
    await h.stop();
    const printed = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\u00a0/g, ' ');
    expect(printed).toContain('🎉 New supporter: Grace H.\nSupporter count now 123 · Total €12,345');
    // Printed once: offered again, the ledger says it was posted.
    expect(printed.split('New supporter').length - 1).toBe(1);
  });
});

describe('renderConsoleMessage', () => {
  test('strips terminal escape sequences and control characters from every field', () => {
    const evil = `${hostileTexts.ansi}\u001b]0;pwned\u0007 \u001b[2J`;
    const out = renderConsoleMessage({
      title: evil,
      text: evil,
      fields: [{ name: evil, value: evil }],
      footer: evil,
      badge: evil,
      links: [{ label: evil, url: 'https://ok.example' }],
    });
    expect(out).not.toMatch(/[\u001b\u0007\u009b]/);
    expect(out).toContain('red');
  });

  test('links that are not http(s) are not shown', () => {
    const out = renderConsoleMessage({
      title: 'x',
      titleUrl: 'javascript:alert(1)',
      links: [{ label: 'l', url: 'file:///etc/passwd' }],
    });
    expect(out).toBe('x');
  });

  test("draws the progress bar with the core's label", () => {
    expect(
      renderConsoleMessage({ title: 'x', progress: { current: 5, goal: 10, percent: 50, label: '50 %' } }),
    ).toContain('▰▰▰▰▰▰▰▰▰▰▱▱▱▱▱▱▱▱▱▱ 50 %');
  });

  test('draws a field list with bullets (the digest lists)', () => {
    expect(renderConsoleMessage({ fields: [{ name: 'Sold out', value: '', items: ['Mug', 'Tee'] }] })).toBe(
      'Sold out:\n  • Mug\n  • Tee',
    );
  });

  test('terminalSafe removes bidi overrides', () => {
    expect(terminalSafe(hostileTexts.rtl)).toBe('namegnp.exex');
  });
});
