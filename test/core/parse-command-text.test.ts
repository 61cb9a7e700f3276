import { describe, expect, test } from 'vitest';
import {
  commandUsage,
  parseCommandArguments,
  parseCommandLine,
  parseSubcommandText,
  tokenize,
} from '../../src/core/parse-command-text.js';
import { describeParseError } from '../../src/core/parse-error-message.js';
import { findCommand } from '../../src/domain/command-definitions.js';

describe('parseCommandLine', () => {
  test('positional options in definition order, integers coerced', () => {
    expect(parseCommandLine('/reward 12 solar-kiosk')).toMatchObject({
      ok: true,
      command: { name: 'reward' },
      options: { id: 12, project: 'solar-kiosk' },
    });
    expect(parseCommandLine('/reward #12')).toMatchObject({ ok: true, options: { id: 12 } });
    expect(parseCommandLine('/funding')).toMatchObject({ ok: true, options: {} });
  });

  test('the rest option takes the remaining text', () => {
    expect(parseCommandLine('/subscribe solar-kiosk wall blog, milestones')).toMatchObject({
      ok: true,
      options: { project: 'solar-kiosk', kinds: 'wall blog, milestones' },
    });
  });

  test('quoted strings are one value, typographic quotes too (Slack converts them)', () => {
    expect(parseCommandLine('/funding "solar kiosk"')).toMatchObject({
      ok: true,
      options: { project: 'solar kiosk' },
    });
    expect(parseCommandLine('/funding “solar kiosk”')).toMatchObject({
      ok: true,
      options: { project: 'solar kiosk' },
    });
    expect(tokenize(`a "b \\" c" d's`)).toEqual(['a', 'b " c', "d's"]);
    expect(tokenize('"open')).toBeUndefined();
  });

  test('choices are checked and normalized', () => {
    expect(parseCommandLine('/language DE workspace')).toMatchObject({
      ok: true,
      options: { locale: 'de', scope: 'workspace' },
    });
    expect(parseCommandLine('/language fr')).toMatchObject({
      ok: false,
      error: { code: 'invalid-choice', option: 'locale', value: 'fr', choices: ['en', 'de'] },
    });
  });

  test('the Slack form /fundbot <subcommand> is understood too', () => {
    expect(parseCommandLine('/fundbot status solar-kiosk')).toMatchObject({
      ok: true,
      command: { name: 'status' },
      options: { project: 'solar-kiosk' },
    });
  });

  test.each([
    ['funding', { code: 'not-a-command' }],
    ['/teleport', { code: 'unknown-command', command: 'teleport' }],
    ['/reward', { code: 'missing-option', command: 'reward', option: 'id' }],
    ['/reward twelve', { code: 'invalid-integer', option: 'id', value: 'twelve' }],
    ['/funding a b', { code: 'too-many-arguments', extra: 'b' }],
    ['/funding "a', { code: 'unterminated-quote' }],
  ])('%s is a clear error', (line, error) => {
    expect(parseCommandLine(line)).toMatchObject({ ok: false, error });
  });

  test('errors read as helpful sentences with the usage, in both languages', () => {
    const missing = parseCommandLine('/reward');
    if (missing.ok) throw new Error('expected an error');
    expect(describeParseError(missing.error, 'en')).toBe('Missing id. Usage: /reward <id> [project]');
    expect(describeParseError(missing.error, 'de')).toBe('id fehlt. Aufruf: /reward <id> [project]');
  });
});

describe('parseCommandArguments (Slack free text)', () => {
  test('parses the text field of a slash command', () => {
    const reward = findCommand('reward');
    if (!reward) throw new Error('no reward command');
    expect(parseCommandArguments(reward, ' 7   tiny-farm ')).toMatchObject({
      ok: true,
      options: { id: 7, project: 'tiny-farm' },
    });
  });

  test('usage uses the platform name', () => {
    const status = findCommand('status');
    if (!status) throw new Error('no status command');
    expect(commandUsage(status, 'slack')).toBe('/fundbot status [project]');
    expect(commandUsage(status, 'discord')).toBe('/status [project]');
  });
});

describe('parseSubcommandText (Slack: /fundbot <subcommand> …)', () => {
  test('the first word picks the definition, the rest are its values', () => {
    expect(parseSubcommandText('funding')).toMatchObject({
      ok: true,
      command: { name: 'funding' },
      options: {},
    });
    expect(parseSubcommandText('  subscribe solar-kiosk supporters wall ')).toMatchObject({
      ok: true,
      command: { name: 'subscribe' },
      options: { project: 'solar-kiosk', kinds: 'supporters wall' },
    });
    expect(parseSubcommandText('REWARD #7 "tiny farm"')).toMatchObject({
      ok: true,
      command: { name: 'reward' },
      options: { id: 7, project: 'tiny farm' },
    });
  });

  test('blank text is help', () => {
    expect(parseSubcommandText('')).toMatchObject({ ok: true, command: { name: 'help' } });
    expect(parseSubcommandText('   ')).toMatchObject({ ok: true, command: { name: 'help' } });
    expect(parseSubcommandText('help')).toMatchObject({ ok: true, command: { name: 'help' } });
  });

  test('an unknown subcommand names every subcommand, in both languages', () => {
    const parsed = parseSubcommandText('fundng solar-kiosk');
    expect(parsed).toMatchObject({ ok: false, error: { code: 'unknown-subcommand', subcommand: 'fundng' } });
    if (parsed.ok) throw new Error('parsed');
    const en = describeParseError(parsed.error, 'en', 'slack');
    expect(en).toContain('"fundng"');
    for (const name of ['funding', 'rewards', 'subscribe', 'unsubscribe', 'help']) expect(en).toContain(name);
    expect(en).toContain('/fundbot help');
    expect(describeParseError(parsed.error, 'de', 'slack')).toMatch(/Unterbefehl „fundng“.*subscribe/);
  });

  test('errors inside a subcommand show the Slack usage', () => {
    const parsed = parseSubcommandText('reward');
    if (parsed.ok) throw new Error('parsed');
    expect(describeParseError(parsed.error, 'en', 'slack')).toContain('/fundbot reward <id> [project]');
  });
});
