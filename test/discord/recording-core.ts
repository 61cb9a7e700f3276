import type { CommandContext, CommandCore, CommandInvocation, Locale } from '../../src/core/command-core.js';
import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef } from '../../src/core/ports.js';

/**
 * A CommandCore that records what the adapter hands it and answers with what
 * the test sets. `hold()` makes the next execute wait until the test releases it
 * (for the 3-second window), without any real waiting.
 */
export class RecordingCore implements CommandCore {
  readonly invocations: CommandInvocation[] = [];
  readonly autocompletes: { command: string; option: string; partial: string; context: CommandContext }[] =
    [];
  answer: NeutralMessage | ((invocation: CommandInvocation) => NeutralMessage) = { title: 'ok', text: 'ok' };
  suggestions: { name: string; value: string }[] = [];
  failWith: Error | undefined;
  #held: Promise<void> | undefined;

  /** The next executes wait until the returned function is called. */
  hold(): () => void {
    let release!: () => void;
    this.#held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return () => {
      this.#held = undefined;
      release();
    };
  }

  async execute(invocation: CommandInvocation): Promise<NeutralMessage> {
    this.invocations.push(invocation);
    if (this.#held) await this.#held;
    if (this.failWith) throw this.failWith;
    return typeof this.answer === 'function' ? this.answer(invocation) : this.answer;
  }

  async autocomplete(
    command: string,
    option: string,
    partial: string,
    context: CommandContext,
  ): Promise<readonly { name: string; value: string }[]> {
    this.autocompletes.push({ command, option, partial, context });
    return this.suggestions;
  }

  renderNotice(): NeutralMessage {
    return { text: 'notice' };
  }

  async localeFor(_channel: ChannelRef): Promise<Locale> {
    return 'en';
  }

  async timeZoneFor(_channel: ChannelRef): Promise<string> {
    return 'UTC';
  }
}
