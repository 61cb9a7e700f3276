import { afterAll, afterEach } from 'vitest';
import { type BotProcess, killAllBots, outputTail } from './bot-process.js';

interface Closable {
  close(): Promise<void>;
}

/**
 * The hooks of a journey file that drives one bot at a time: after a failed step, the bot's output tail on stderr
 * (a step that is expected to fail prints nothing); after the file, every bot killed, then the driver and the
 * world closed. `parts` is read when a hook runs, so the file's `let`s may be assigned later.
 */
export function journeyHooks(
  parts: () => {
    readonly bot: BotProcess | undefined;
    readonly driver: Closable | undefined;
    readonly world: Closable | undefined;
  },
): void {
  afterEach((context) => {
    const { bot } = parts();
    if (context.task.result?.state === 'fail' && !context.task.fails && bot) {
      console.error(`--- fundbot's output (${bot.name}) ---\n${outputTail(bot)}`);
    }
  });
  afterAll(async () => {
    killAllBots();
    const { driver, world } = parts();
    await driver?.close();
    await world?.close();
  });
}
