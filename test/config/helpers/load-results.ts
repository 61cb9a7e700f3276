import { expect } from 'vitest';
import { type ConfigProblem, formatConfigProblem } from '../../../src/config/config-problem.js';
import { type LoadConfigResult, loadConfig } from '../../../src/config/load-config.js';
import { ALL_SECRETS, validEnv, withConfig } from '../config-builders.js';

/** Loads `file` (an object, or raw text) from the default path with `env`, a valid environment by default. */
export function load(file: unknown, env = validEnv()): LoadConfigResult {
  return loadConfig({ env, readFile: withConfig(file) });
}

/** The problems of a result that must be invalid (fails the test when it is valid). */
export function problemsOf(result: LoadConfigResult): readonly ConfigProblem[] {
  if (result.ok) throw new Error('expected problems, got a valid configuration');
  return result.problems;
}

/** Each problem as the one line an operator reads. */
export function lines(result: LoadConfigResult): string[] {
  return problemsOf(result).map(formatConfigProblem);
}

/** Fails when `text` shows any of the test secrets. */
export function expectNoSecret(text: string): void {
  for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
  // Not even a recognisable fragment of a key.
  expect(text).not.toMatch(/svc_(proj|user)_[A-Za-z0-9]/);
}
