import type { ConfigProblem } from './config-problem.js';
import { type Env, readEnv } from './env-vars.js';
import { describeWrappedKey } from './resolve-projects.js';
import { Secret } from './secret.js';
import { baseOf, checkServiceUrl } from './service-url.js';

/* Shared by the chat platform resolvers: a platform's base URL, a required secret, a secret set for nothing. */

/** A platform's base URL from its variable or the file; undefined = the platform's own (problems added when invalid). */
export function platformUrl(
  env: Env,
  variable: string,
  fileValue: string | undefined,
  filePath: string,
  secrets: string,
  problems: ConfigProblem[],
): { ok: boolean; url: string | undefined } {
  const fromEnv = readEnv(env, variable);
  const value = fromEnv ?? fileValue;
  if (value === undefined) return { ok: true, url: undefined };
  const url = checkServiceUrl(value, fromEnv !== undefined ? `env ${variable}` : filePath, secrets, problems);
  return url === undefined ? { ok: false, url: undefined } : { ok: true, url: baseOf(url) };
}

export function requireToken(
  env: Env,
  name: string,
  prefix: string,
  what: string,
  problems: ConfigProblem[],
): Secret | undefined {
  const value = readEnv(env, name);
  if (value === undefined) {
    problems.push({
      code: 'env_missing',
      path: `env ${name}`,
      message: 'is not set',
      fix: `export ${name} with ${what}`,
    });
    return undefined;
  }
  const wrapped = describeWrappedKey(value);
  if (wrapped !== undefined) {
    problems.push({
      code: 'env_invalid',
      path: `env ${name}`,
      message: wrapped,
      fix: `set only the token itself in ${name}, without "Bearer " and without spaces or line breaks`,
    });
    return undefined;
  }
  if (!value.startsWith(prefix) || /\s/.test(value)) {
    problems.push({
      code: 'env_invalid',
      path: `env ${name}`,
      message: prefix
        ? `does not look like a token: it must start with ${prefix} and contain no spaces`
        : 'contains whitespace',
      fix: `export ${name} with ${what}`,
    });
    return undefined;
  }
  return new Secret(name, value);
}

export function setButDisabled(variable: string, field: string): ConfigProblem {
  return {
    code: 'invalid_value',
    path: field,
    message: `${variable} is set but ${field} is false, so that platform stays off`,
    fix: `set ${field} to true to use it, or unset ${variable}`,
  };
}
