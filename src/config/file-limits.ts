import type { ConfigProblem } from './config-problem.js';
import { formatPath } from './file-problems.js';

/*
 * Limits on the config file, checked before anything walks it: a config is a few kilobytes, a
 * few levels deep, with short values. A file far outside that (a 60 MB value pasted in, a
 * generated file nested thousands deep) is refused with a message instead of running every
 * check into a stack overflow or seconds of work.
 */

/** The largest config file read: 1,000 projects take about 100 KB. */
export const MAX_CONFIG_CHARS = 1024 * 1024;
/** The deepest nesting of objects and arrays (the schema itself goes three deep); counted before parsing (parse-config-text.ts). */
export const MAX_CONFIG_DEPTH = 16;
/** The longest value or field name (URLs and link captions are far shorter). */
export const MAX_CONFIG_STRING_CHARS = 4096;
/** Past this many, long values are not listed one by one. */
const MAX_LISTED = 5;

/** A problem when the file text is larger than {@link MAX_CONFIG_CHARS}, checked before parsing. */
export function checkConfigSize(text: string, source: string): ConfigProblem | undefined {
  if (text.length <= MAX_CONFIG_CHARS) return undefined;
  return {
    code: 'invalid_value',
    path: source,
    message: `the file is ${megabytes(text.length)} MB; a config file is at most ${megabytes(MAX_CONFIG_CHARS)} MB`,
    fix: 'check that FUNDBOT_CONFIG (or ./fundbot.config.json) names the config file: it holds settings only, secrets come from the environment (fundbot.config.example.json shows a whole one)',
  };
}

/**
 * Values and field names longer than {@link MAX_CONFIG_STRING_CHARS}, found without recursion.
 * Empty when the parsed file is within the limits. (Nesting deeper than {@link MAX_CONFIG_DEPTH}
 * was refused before parsing, with its line and column: parse-config-text.ts.)
 */
export function checkConfigShape(raw: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  let longValues = 0;
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value: raw, path: [] }];
  const tooLong = (path: (string | number)[], length: number) => {
    longValues += 1;
    if (longValues > MAX_LISTED) return;
    problems.push({
      code: 'invalid_value',
      path: formatPath(path),
      message: `is ${length.toLocaleString('en')} characters long; fundbot takes at most ${MAX_CONFIG_STRING_CHARS.toLocaleString('en')}`,
      fix: 'shorten or remove it: URLs, names and captions are far shorter, and secrets belong in the environment',
    });
  };
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.length > MAX_CONFIG_STRING_CHARS) tooLong(path, value.length);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [index, item])
      : Object.entries(value);
    for (const [key, item] of entries.reverse()) {
      if (typeof key === 'string' && key.length > MAX_CONFIG_STRING_CHARS) {
        tooLong([...path, '(a field name)'], key.length);
        continue;
      }
      pending.push({ value: item, path: [...path, key] });
    }
  }
  if (longValues > MAX_LISTED) {
    problems.push({
      code: 'invalid_value',
      path: '(top level)',
      message: `${longValues - MAX_LISTED} more values are longer than ${MAX_CONFIG_STRING_CHARS.toLocaleString('en')} characters`,
      fix: 'shorten or remove them: this does not look like a fundbot config (fundbot.config.example.json shows one)',
    });
  }
  return problems;
}

function megabytes(chars: number): string {
  return (chars / (1024 * 1024)).toFixed(1);
}
