import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  consoleChannel,
  createConsolePoster,
  streamPrint,
} from '../../src/adapters/console/console-poster.js';
import { createConsoleAdapter } from '../../src/adapters/console/create-console-adapter.js';
import { renderConsoleMessage } from '../../src/adapters/console/render-console-message.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { ManualClock } from '../support/manual-clock.js';

/** Strips the cursor movements readline writes, leaving what a person would read. */
function visible(text: string): string {
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (c: Buffer) => {
    written += c.toString('utf8');
  });
  return { input, output, written: () => written };
}

describe('console screen', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  test('a notice arriving while a command is half typed is printed above it and the typed text is redrawn', async () => {
    const t = terminal();
    const fixture = createCoreFixture();
    const adapter = createConsoleAdapter({
      core: fixture.core,
      input: t.input,
      output: t.output,
      prompt: 'fundbot> ',
      interactive: true,
    });
    const reading = adapter.start();
    t.input.write('/fund');
    await vi.waitFor(() => expect(visible(t.written())).toContain('fundbot> /fund'));

    await adapter.poster.post(consoleChannel, { title: '🎉 New supporter: Ada', tone: 'success' }, 'k1');
    const afterNotice = visible(t.written());
    const notice = afterNotice.lastIndexOf('🎉 New supporter: Ada');
    // The half-typed command comes back below the notice, on a fresh prompt.
    expect(afterNotice.lastIndexOf('fundbot> /fund')).toBeGreaterThan(notice);

    // Finishing the line runs the whole command, not the torn pieces.
    t.input.write('ing\n');
    await vi.waitFor(() => expect(visible(t.written())).toContain('Funding: €12,345 of €20,000'));
    t.input.end();
    await reading;
  });

  test('without a terminal, lines are appended and no prompt is redrawn', async () => {
    const t = terminal();
    const adapter = createConsoleAdapter({
      core: createCoreFixture().core,
      input: t.input,
      output: t.output,
    });
    const reading = adapter.start();
    await adapter.poster.post(consoleChannel, { title: 'Hello' }, 'k');
    t.input.end();
    await reading;
    expect(t.written()).toBe('Hello\n\n');
  });

  test('one icon per line: a title with its own icon gets no tone mark', () => {
    expect(renderConsoleMessage({ title: '🎉 New supporter: Ada', tone: 'success' })).toBe(
      '🎉 New supporter: Ada',
    );
    expect(renderConsoleMessage({ title: 'Saved', tone: 'success' })).toBe('✔ Saved');
    expect(renderConsoleMessage({ title: 'Sunny mug', badge: 'locked' })).toBe('Sunny mug [locked]');
  });

  test('an attached chart is saved to the folder and its path printed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fundbot-console-'));
    dirs.push(dir);
    const out = new PassThrough();
    let written = '';
    out.on('data', (c: Buffer) => {
      written += c.toString('utf8');
    });
    const clock = new ManualClock(Date.UTC(2026, 0, 8, 17, 10, 5, 42));
    const poster = createConsolePoster(streamPrint(out), { attachmentDir: dir, clock });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    await poster.post(
      consoleChannel,
      {
        title: 'Daily digest',
        image: {
          kind: 'attachment',
          filename: '../../etc/digest chart.png',
          data: png,
          alt: 'Funding chart',
        },
      },
      'k',
    );
    // Made safe for any file system, with the time of day so a second chart does not overwrite it.
    const path = join(dir, '_.._etc_digest_chart-171005042.png');
    expect(written).toContain(`🖼 Funding chart: ${path}`);
    expect(new Uint8Array(await readFile(path))).toEqual(png);
  });
});
