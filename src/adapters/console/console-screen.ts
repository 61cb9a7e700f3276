import { clearLine, createInterface, cursorTo, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/**
 * One terminal shared by two writers: the person typing commands and the notices
 * that arrive while they type. Output is printed ABOVE the line being typed: the
 * input line is cleared, the text written, and the prompt redrawn with what was
 * typed so far and the cursor where it was (readline's `prompt(true)`). Without a
 * TTY (pipes, tests, CI logs) nothing is redrawn: lines are simply appended.
 */
export interface ConsoleScreen {
  /** The typed lines, in order, until the input ends or {@link close}. */
  lines(): AsyncIterable<string>;
  /** Prints a block of text above the input line; resolves when the stream took it. */
  print(text: string): Promise<void>;
  /** Shows the prompt (after an answer). */
  showPrompt(): void;
  close(): void;
}

export interface ConsoleScreenOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** The prompt, e.g. 'fundbot> '. Without one, no prompt is drawn. */
  readonly prompt?: string;
  /** Redraw the input line around printed text. Default: whether the output is a TTY. */
  readonly interactive?: boolean;
}

export function createConsoleScreen(options: ConsoleScreenOptions): ConsoleScreen {
  const { input, output } = options;
  const interactive = options.interactive ?? (output as { isTTY?: boolean }).isTTY === true;
  const prompt = options.prompt ?? '';
  let readline: Interface | undefined;
  let closed = false;

  function open(): Interface {
    readline ??= createInterface({
      input,
      output: interactive ? output : undefined,
      terminal: interactive,
      prompt,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    return readline;
  }

  return {
    lines() {
      const rl = open();
      if (prompt) {
        if (interactive) rl.prompt();
        else output.write(prompt);
      }
      return rl;
    },
    print(text) {
      return new Promise((resolve, reject) => {
        const rl = readline;
        if (interactive && rl !== undefined && !closed) {
          // Clear the half-typed line, print, then redraw prompt + typed text with the cursor kept.
          clearLine(output, 0);
          cursorTo(output, 0);
          output.write(text, (error) => {
            if (error) return reject(error);
            rl.prompt(true);
            resolve();
          });
          return;
        }
        output.write(text, (error) => (error ? reject(error) : resolve()));
      });
    },
    showPrompt() {
      if (!prompt || closed) return;
      if (interactive && readline !== undefined) readline.prompt();
      else output.write(prompt);
    },
    close() {
      closed = true;
      readline?.close();
    },
  };
}
