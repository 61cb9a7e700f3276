import {
  type CommandDefinition,
  commandDefinitions,
  type OptionDefinition,
  slackCommand,
  slackDefaultSubcommand,
} from '../domain/command-definitions.js';
import type { OptionValue } from './command-core.js';

/**
 * Why a typed command line could not be parsed. Structured (not a sentence) so
 * the core can explain it in the channel's language ({@link describeParseError}).
 */
export type ParseError =
  | { readonly code: 'not-a-command' }
  | { readonly code: 'unknown-command'; readonly command: string }
  | {
      readonly code: 'unknown-subcommand';
      readonly subcommand: string;
      readonly subcommands: readonly string[];
    }
  | { readonly code: 'unterminated-quote'; readonly command: string }
  | { readonly code: 'missing-option'; readonly command: string; readonly option: string }
  | {
      readonly code: 'invalid-integer' | 'invalid-boolean';
      readonly command: string;
      readonly option: string;
      readonly value: string;
    }
  | {
      readonly code: 'invalid-choice';
      readonly command: string;
      readonly option: string;
      readonly value: string;
      readonly choices: readonly string[];
    }
  | { readonly code: 'too-many-arguments'; readonly command: string; readonly extra: string };

export type ParseResult =
  | {
      readonly ok: true;
      readonly command: CommandDefinition;
      readonly options: Readonly<Record<string, OptionValue>>;
    }
  | { readonly ok: false; readonly error: ParseError };

/** Opening quote → closing quote. Slack turns typed quotes into typographic ones, so those count too. */
const quotePairs: Readonly<Record<string, string>> = { '"': '"', "'": "'", '“': '”', '„': '“', '‘': '’' };

/**
 * Splits on blank space; a quoted stretch is one token (quotes removed, `\"`
 * escapes a quote inside). Returns undefined when a quote is never closed.
 */
export function tokenize(text: string): string[] | undefined {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let closing: string | undefined;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (closing !== undefined) {
      if (ch === '\\' && chars[i + 1] === closing) {
        current += closing;
        i++;
      } else if (ch === closing) {
        closing = undefined;
      } else {
        current += ch;
      }
      continue;
    }
    // A quote opens only at the start of a value, so an apostrophe inside a word stays a letter.
    const close = inToken ? undefined : quotePairs[ch];
    if (close !== undefined) {
      closing = close;
      inToken = true;
    } else if (/\s/u.test(ch)) {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
    } else {
      current += ch;
      inToken = true;
    }
  }
  if (closing !== undefined) return undefined;
  if (inToken) tokens.push(current);
  return tokens;
}

const trueWords = new Set(['true', 'yes', 'y', 'on', '1', 'ja']);
const falseWords = new Set(['false', 'no', 'n', 'off', '0', 'nein']);

function coerce(
  command: CommandDefinition,
  option: OptionDefinition,
  raw: string,
): { value: OptionValue } | { error: ParseError } {
  if (option.type === 'integer') {
    // "#12" is how /rewards shows an id, so accept it as typed.
    const digits = raw.replace(/^#/, '');
    const value = Number(digits);
    if (!/^[+-]?\d+$/.test(digits) || !Number.isSafeInteger(value)) {
      return { error: { code: 'invalid-integer', command: command.name, option: option.name, value: raw } };
    }
    return { value };
  }
  if (option.type === 'boolean') {
    const word = raw.toLowerCase();
    if (trueWords.has(word)) return { value: true };
    if (falseWords.has(word)) return { value: false };
    return { error: { code: 'invalid-boolean', command: command.name, option: option.name, value: raw } };
  }
  if (option.choices) {
    const choice = option.choices.find(
      (c) => c.value.toLowerCase() === raw.toLowerCase() || c.name.toLowerCase() === raw.toLowerCase(),
    );
    if (!choice) {
      return {
        error: {
          code: 'invalid-choice',
          command: command.name,
          option: option.name,
          value: raw,
          choices: option.choices.map((c) => c.value),
        },
      };
    }
    return { value: choice.value };
  }
  return { value: raw };
}

/**
 * Parses the argument text of one command (Slack's `text` field, or what
 * follows the name in the console): values are positional in definition
 * order, quoted strings are one value, an option marked `rest` takes the
 * remaining text, integers and booleans are coerced, choices checked.
 */
export function parseCommandArguments(command: CommandDefinition, text: string): ParseResult {
  const tokens = tokenize(text);
  if (!tokens) return { ok: false, error: { code: 'unterminated-quote', command: command.name } };
  const options: Record<string, OptionValue> = {};
  let index = 0;
  for (const option of command.options) {
    if (index >= tokens.length) {
      if (option.required) {
        return { ok: false, error: { code: 'missing-option', command: command.name, option: option.name } };
      }
      continue;
    }
    const raw = option.rest ? tokens.slice(index).join(' ') : (tokens[index] as string);
    index = option.rest ? tokens.length : index + 1;
    const coerced = coerce(command, option, raw);
    if ('error' in coerced) return { ok: false, error: coerced.error };
    options[option.name] = coerced.value;
  }
  if (index < tokens.length) {
    return {
      ok: false,
      error: { code: 'too-many-arguments', command: command.name, extra: tokens.slice(index).join(' ') },
    };
  }
  return { ok: true, command, options };
}

/** Splits off the first word (unquoted) and the text after it; undefined for blank text. */
function firstWord(text: string): { word: string; rest: string } | undefined {
  const match = /^\s*(\S+)\s*([\s\S]*)$/u.exec(text);
  return match ? { word: match[1] as string, rest: match[2] ?? '' } : undefined;
}

/**
 * Parses the text of Slack's one command, `/fundbot <subcommand> [values…]`: the
 * first word picks the definition, the rest is its arguments. Blank text runs
 * {@link slackDefaultSubcommand} (help); an unknown word is an error naming every
 * subcommand, so the user sees at once what exists.
 */
export function parseSubcommandText(
  text: string,
  definitions: readonly CommandDefinition[] = commandDefinitions,
): ParseResult {
  const split = firstWord(text) ?? { word: slackDefaultSubcommand, rest: '' };
  const name = split.word.replace(/^\//, '').toLowerCase();
  const command = definitions.find((c) => c.name === name);
  if (!command) {
    return {
      ok: false,
      error: {
        code: 'unknown-subcommand',
        subcommand: split.word,
        subcommands: definitions.map((c) => c.name),
      },
    };
  }
  return parseCommandArguments(command, split.rest);
}

/**
 * Parses a whole typed line such as `/reward 12 solar-kiosk`; Slack's form
 * `/fundbot reward 12 solar-kiosk` is understood as well.
 */
export function parseCommandLine(
  line: string,
  definitions: readonly CommandDefinition[] = commandDefinitions,
): ParseResult {
  const trimmed = line.trim();
  const match = /^\/(\S+)\s*([\s\S]*)$/u.exec(trimmed);
  if (!match) return { ok: false, error: { code: 'not-a-command' } };
  const name = (match[1] as string).toLowerCase();
  if (name === slackCommand.name) return parseSubcommandText(match[2] ?? '', definitions);
  const command = definitions.find((c) => c.name === name);
  if (!command) return { ok: false, error: { code: 'unknown-command', command: name } };
  return parseCommandArguments(command, match[2] ?? '');
}

/** How a user types a command on a platform: `/funding` on Discord and in the console, `/fundbot funding` on Slack. */
export function commandInvocationText(name: string, platform?: 'discord' | 'slack' | 'console'): string {
  return platform === 'slack' ? `/${slackCommand.name} ${name}` : `/${name}`;
}

/** "/reward <id> [project]" as typed on the platform ("/fundbot reward <id> [project]" on Slack). */
export function commandUsage(command: CommandDefinition, platform?: 'discord' | 'slack' | 'console'): string {
  const name = commandInvocationText(command.name, platform);
  const options = command.options.map((o) => {
    const label = o.rest ? `${o.name}…` : o.name;
    return o.required ? `<${label}>` : `[${label}]`;
  });
  return [name, ...options].join(' ');
}
