import { describe, expect, test } from 'vitest';
import {
  commandUsage,
  parseCommandArguments,
  parseCommandLine,
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

  test('Slack names are understood', () => {
    expect(parseCommandLine('/fundbot-status solar-kiosk')).toMatchObject({
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
    expect(commandUsage(status, 'slack')).toBe('/fundbot-status [project]');
    expect(commandUsage(status, 'discord')).toBe('/status [project]');
  });
});
