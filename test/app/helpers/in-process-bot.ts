/**
 * The composition root (startBot) run in the test process on a config written here, against the simulator and
 * the platform fakes: what a test of the assembled bot starts is stopped when that test ends (vitest's
 * onTestFinished, the last started first), pass or fail.
 */
import { onTestFinished } from 'vitest';
import { type RunningBot, startBot } from '../../../src/app/start-bot.js';
import { type FundbotConfig, parseConfig } from '../../../src/config/index.js';

/** Simulator limits the tests' short poll intervals stay inside: the budget is the benchmark's business. */
export const roomyLimits = { pro: { perMinute: 10_000, perDay: 1_000_000 } };

/** A config file's JSON as fundbot reads it at start, with `env` as its environment; a problem fails the test. */
export function configOf(
  json: object,
  env: Readonly<Record<string, string>>,
  source = 'test.json',
): FundbotConfig {
  const parsed = parseConfig(JSON.stringify(json), { env, source });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

/** Stops a bot as SIGTERM does: its shutdown steps in order. */
export async function stopBot(bot: RunningBot): Promise<void> {
  for (const step of bot.shutdownSteps) await step.stop();
}

/** startBot, stopped when the test ends. */
export async function startBotInTest(...args: Parameters<typeof startBot>): Promise<RunningBot> {
  const bot = await startBot(...args);
  onTestFinished(() => stopBot(bot));
  return bot;
}
