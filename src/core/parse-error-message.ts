import { findCommand } from '../domain/command-definitions.js';
import { singleLine } from '../domain/text.js';
import { limits } from '../domain/text-limits.js';
import type { Locale } from './command-core.js';
import { privateError } from './create-command-core.js';
import { catalogFor } from './i18n/index.js';
import type { NeutralMessage } from './message.js';
import { commandInvocationText, commandUsage, type ParseError } from './parse-command-text.js';
import type { ChannelRef } from './ports.js';

/** A parse error as one sentence in the given language, with the command's usage where it helps. */
export function describeParseError(
  error: ParseError,
  locale: Locale,
  platform?: ChannelRef['platform'],
): string {
  const t = catalogFor(locale);
  const usage = (name: string) => {
    const command = findCommand(name);
    return command ? commandUsage(command, platform) : `/${name}`;
  };
  switch (error.code) {
    case 'not-a-command':
      return t.errors.notACommand;
    case 'unknown-command':
      return t.errors.unknownCommand(
        singleLine(error.command, limits.name),
        commandInvocationText('help', platform),
      );
    case 'unknown-subcommand':
      return t.errors.unknownSubcommand(
        singleLine(error.subcommand, limits.name),
        error.subcommands.join(', '),
        commandInvocationText('help', platform),
      );
    case 'unterminated-quote':
      return t.errors.unterminatedQuote;
    case 'missing-option':
      return t.errors.missingOption(error.option, usage(error.command));
    case 'invalid-integer':
      return t.errors.invalidInteger(error.option, singleLine(error.value, limits.name));
    case 'invalid-boolean':
      return t.errors.invalidBoolean(error.option, singleLine(error.value, limits.name));
    case 'invalid-choice':
      return t.errors.invalidChoice(
        error.option,
        singleLine(error.value, limits.name),
        error.choices.join(', '),
      );
    case 'too-many-arguments':
      return t.errors.tooManyArguments(singleLine(error.extra, limits.name), usage(error.command));
  }
}

/** A parse error as the private error reply adapters send (Slack free text, the console). */
export function parseErrorMessage(
  error: ParseError,
  locale: Locale,
  platform?: ChannelRef['platform'],
): NeutralMessage {
  return privateError(locale, describeParseError(error, locale, platform));
}
