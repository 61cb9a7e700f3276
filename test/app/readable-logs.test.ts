/**
 * The real entry point with a config file that has comments, and LOG_FORMAT=pretty: it
 * starts, and its log is readable lines for a terminal, with the keys scrubbed as in JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoLinkCaption, type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type SpawnedBot, spawnBot } from './helpers/spawned-bot.js';

let bot: SpawnedBot | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await bot?.stop();
  bot?.dispose();
  bot = undefined;
  await sim?.close();
});

/** Resolves once the bot's output matches `pattern` (it is told on every chunk it writes). */
function outputMatching(running: SpawnedBot, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(running.output())) return;
      finish();
      resolve(running.output());
    };
    const onExit = () => {
      finish();
      reject(new Error(`the bot exited before writing ${pattern}:\n${running.output()}`));
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${running.output()}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      running.proc.stdout.off('data', check);
      running.proc.off('exit', onExit);
    };
    running.proc.stdout.on('data', check);
    running.proc.once('exit', onExit);
    check();
  });
}

describe('LOG_FORMAT=pretty through the real entry point', () => {
  it('starts on a commented config and writes readable, scrubbed lines instead of JSON', async () => {
    sim = await startSimulator();
    const key = sim.issueProjectKey(demoLinkCaption);
    const configText = `// fundbot's settings: comments and trailing commas are fine
{
  "api": { "baseUrl": "${sim.url}" }, /* the simulator */
  "store": { "url": "memory:" },
  "projects": [{ "linkCaption": "${demoLinkCaption}", "apiKeyEnv": "SOLAR_KIOSK_API_KEY" },],
  "digest": { "enabled": false },
  // no chat platform: a warning, and the engine still runs
  "discord": { "enabled": false },
  "slack": { "enabled": false },
}`;
    bot = await spawnBot({
      configText,
      env: { SOLAR_KIOSK_API_KEY: key, LOG_FORMAT: 'pretty', NO_COLOR: '1' },
      readyMessage: null,
    });
    const output = await outputMatching(bot, /\] INFO: fundbot is running/);
    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: no chat platform is enabled, so notices go nowhere$/m,
    );
    expect(output).not.toMatch(/^\{"/m);
    expect(output).not.toContain(key);
    expect(output).not.toMatch(/\u001b\[/);
  }, 60_000);
});
