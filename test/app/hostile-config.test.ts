/**
 * A config file far outside a config's size or depth, through the real entry point: a
 * clear list of problems on stderr and exit 1, never a stack trace (both crashed loading
 * with "Maximum call stack size exceeded" before).
 */
import { describe, expect, it } from 'vitest';
import { compiledEntryForFile } from '../journeys/harness/compiled-entry.js';
import { spawnBot } from './helpers/spawned-bot.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

const valid = {
  api: { baseUrl: 'http://127.0.0.1:9' },
  projects: [{ linkCaption: 'solar-kiosk', apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
};

/** Runs `src/main.ts` on `text` as its config file; resolves with the exit code and everything it wrote. */
async function startWith(configText: string): Promise<{ code: number | null; output: string }> {
  const bot = await spawnBot({
    entry: compiledEntry(),
    configText,
    env: { SOLAR_KIOSK_API_KEY: 'svc_proj_Q7m2Zr9Lk4Vx8Wp1Nt6Hs3Jd5Fb0' },
    readyMessage: null,
  });
  const code = await bot.exited;
  return { code, output: bot.output() };
}

describe('a hostile config file through the real entry point', () => {
  it('a 60 MB value: the file size and what to do, exit 1, no stack trace', async () => {
    const { code, output } = await startWith(
      JSON.stringify({ ...valid, locale: 'x'.repeat(60 * 1024 * 1024) }),
    );
    expect(code).toBe(1);
    expect(output).toContain('fundbot cannot start: 1 problem in the configuration');
    expect(output).toContain('the file is 60.0 MB; a config file is at most 1.0 MB');
    expect(output).not.toMatch(/^\s+at /m);
  }, 60_000);

  it('nesting 100,000 deep: where, and what to do, exit 1, no stack trace', async () => {
    const deep = `${JSON.stringify(valid).slice(0, -1)},"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { code, output } = await startWith(deep);
    expect(code).toBe(1);
    expect(output).toContain('objects and arrays are nested more than 16 deep here');
    expect(output).not.toMatch(/^\s+at /m);
  }, 60_000);
});
