import type { Readable, Writable } from 'node:stream';
import type { CommandContext, CommandCore, NeutralMessage } from '../../core/index.js';
import { parseCommandLine, parseErrorMessage, privateError } from '../../core/index.js';
import type { ChannelPoster } from '../../delivery/index.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { consoleChannel, createConsolePoster } from './console-poster.js';
import { createConsoleScreen } from './console-screen.js';
import { renderConsoleMessage } from './render-console-message.js';
import { saveAttachment } from './save-attachment.js';

export interface ConsoleAdapterOptions {
  readonly core: CommandCore;
  readonly input: Readable;
  readonly output: Writable;
  /** Who types. Default: a local operator. */
  readonly user?: { readonly id: string; readonly displayName: string };
  /** The person at the terminal runs the bot, so admin commands are allowed by default. */
  readonly canAdminister?: boolean;
  /** Shown before each line when set (e.g. 'fundbot> ' on a TTY). */
  readonly prompt?: string;
  /**
   * Keep the line being typed intact while notices arrive (redraws it below them).
   * Default: whether `output` is a TTY.
   */
  readonly interactive?: boolean;
  /** Where attached images (the chart of /chart, /digest and the daily digest) are saved; their path is printed. */
  readonly attachmentDir?: string;
  /** Names saved images by the time of day. Default: the system clock. */
  readonly clock?: Clock;
}

export interface ConsoleAdapter {
  /** Posts notices to the same output, for the notice router. */
  readonly poster: ChannelPoster;
  /** Reads commands line by line until the input ends or {@link stop}; resolves when the last answer is written. */
  start(): Promise<void>;
  /** Stops reading; the answer in progress is still written. */
  stop(): void;
  /** Answers one typed line (what start() does per line): for tests and scripted use. */
  handleLine(line: string): Promise<NeutralMessage | undefined>;
}

/**
 * A REPL over the command core: `/funding`, `/reward 12`,
 * `/subscribe solar-kiosk wall blog` typed on a terminal, parsed with the same
 * parser the Slack adapter uses, answered as terminal text. The channel is
 * `{ platform: 'console', workspaceId: 'console', channelId: 'terminal' }`.
 */
export function createConsoleAdapter(options: ConsoleAdapterOptions): ConsoleAdapter {
  const { core, input, output } = options;
  const context: CommandContext = {
    user: options.user ?? { id: 'console', displayName: 'console' },
    channel: consoleChannel,
    canAdminister: options.canAdminister ?? true,
  };
  const screen = createConsoleScreen({
    input,
    output,
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(options.interactive !== undefined ? { interactive: options.interactive } : {}),
  });

  async function handleLine(line: string): Promise<NeutralMessage | undefined> {
    const trimmed = line.trim();
    if (trimmed === '') return undefined;
    const parsed = parseCommandLine(trimmed);
    if (!parsed.ok) return parseErrorMessage(parsed.error, await core.localeFor(consoleChannel), 'console');
    return core.execute({ name: parsed.command.name, options: parsed.options, context });
  }

  const clock = options.clock ?? systemClock;

  /** A message as terminal text, its attached image (a chart) saved to a file whose path is printed. */
  async function print(message: NeutralMessage): Promise<void> {
    const imagePath = await saveAttachment(message, options.attachmentDir, clock.now());
    await screen.print(`${renderConsoleMessage(message, imagePath ? { imagePath } : {})}\n\n`);
  }

  async function answer(line: string): Promise<void> {
    let message: NeutralMessage | undefined;
    try {
      message = await handleLine(line);
    } catch {
      // The core answers every mistake itself; this is a last guard for the REPL to keep running.
      message = privateError('en', 'Something went wrong; try again.');
    }
    if (message) await print(message);
    if (message?.followUp) await print(message.followUp);
    screen.showPrompt();
  }

  return {
    poster: createConsolePoster(screen.print, {
      clock,
      ...(options.attachmentDir !== undefined ? { attachmentDir: options.attachmentDir } : {}),
    }),
    handleLine,
    async start() {
      // Lines are answered one after the other, in the order typed.
      for await (const line of screen.lines()) {
        const command = line.trim().toLowerCase();
        if (command === 'exit' || command === 'quit' || command === '/exit') break;
        await answer(line);
      }
      screen.close();
    },
    stop() {
      screen.close();
    },
  };
}
