import { describe, expect, it } from 'vitest';
import { formatConfigProblems, parseConfig } from '../../src/config/index.js';
import { validEnv, validFile } from './config-builders.js';

function problemsOf(text: string): string[] {
  const result = parseConfig(text, { env: validEnv(), source: 'test.json' });
  return result.ok ? [] : formatConfigProblems(result.problems).split('\n').slice(1, -1);
}

/** The valid file with `extra` merged in at the top level, as JSON text. */
const withExtra = (extra: string) => `${JSON.stringify(validFile()).slice(0, -1)},${extra}}`;

describe('config size and depth limits', () => {
  it('refuses a file over 1 MB before parsing it, saying how large it is', () => {
    const text = JSON.stringify({ ...validFile(), locale: 'x'.repeat(60 * 1024 * 1024) });
    expect(problemsOf(text)).toEqual([
      '  1. test.json: the file is 60.0 MB; a config file is at most 1.0 MB: check that FUNDBOT_CONFIG (or ./fundbot.config.json) names the config file: it holds settings only, secrets come from the environment (fundbot.config.example.json shows a whole one)',
    ]);
  });

  it('names a value or field name too long to be a setting, and lists at most five of them', () => {
    const long = 'y'.repeat(5_000);
    expect(problemsOf(JSON.stringify({ ...validFile(), publicUrl: `https://${long}` }))).toEqual([
      '  1. publicUrl: is 5,008 characters long; fundbot takes at most 4,096: shorten or remove it: URLs, names and captions are far shorter, and secrets belong in the environment',
    ]);
    const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}`, long]));
    const lines = problemsOf(JSON.stringify({ ...validFile(), extra: many, [long]: 1 }));
    expect(lines).toHaveLength(6);
    expect(lines[5]).toContain('4 more values are longer than 4,096 characters');
  });

  it('refuses nesting deeper than 16 levels, naming where, before parsing (no stack overflow)', () => {
    const text = withExtra(`"x":${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    // The top-level object is level 1: the 16th "[" of x opens level 17.
    const column = text.indexOf('"x":') + 4 + 15 + 1;
    expect(problemsOf(text)).toEqual([
      `  1. test.json:1:${column}: objects and arrays are nested more than 16 deep here (line 1, column ${column}): remove the nested part: fundbot's settings go at most three levels deep (see fundbot.config.example.json)`,
    ]);
    expect(problemsOf(withExtra(`"y":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`))[0]).toContain(
      'nested more than 16 deep',
    );
    // 16 levels (the top-level object is the first) still parse, and are then checked as settings.
    expect(problemsOf(withExtra(`"x":${'['.repeat(15)}${']'.repeat(15)}`))[0]).toContain('x: unknown field');
  });

  it('a file within the limits is checked as before', () => {
    expect(problemsOf(JSON.stringify(validFile()))).toEqual([]);
    expect(problemsOf(withExtra('"x":[[[[1]]]]'))[0]).toContain('x: unknown field');
  });
});
