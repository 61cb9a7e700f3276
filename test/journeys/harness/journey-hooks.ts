import { afterAll, afterEach } from 'vitest';
import { type BotProcess, outputTail } from './bot-process.js';

interface Closable {
  close(): Promise<void>;
}

/**
 * The hooks of a journey file that drives one bot at a time: after a failed step, the bot's output tail on stderr
 * (a step that is expected to fail prints nothing); after the file (or the platform's block), its bot killed, then
 * the driver and the world closed: only its own, since another platform's block of the same file may still be
 * running beside it (`describe.concurrent.each`). `parts` is read when a hook runs, so the `let`s may be assigned
 * later.
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
    const { bot, driver, world } = parts();
    bot?.kill();
    await driver?.close();
    await world?.close();
  });
}
