import { ApiKeyFormatError, parseUserKey, USER_KEY_PREFIX, type UserKey } from '../api/index.js';
import type { LogFormat, LogLevel } from '../ops/logger.js';
import { logFormats, logLevels } from '../ops/logger.js';
import type { ConfigProblem } from './config-problem.js';
import { type Env, envVars, readEnv } from './env-vars.js';
import type { ConfigFile } from './schema.js';
import { baseOf, checkPublicUrl, checkServiceUrl } from './service-url.js';

/*
 * Resolvers of the runtime sections (log level, API, store, health server): each reads its file
 * section (undefined when it did not parse) and the environment, records problems, and returns
 * the resolved value or undefined.
 */

export function resolveLogLevel(env: Env, configured: LogLevel | undefined, problems: ConfigProblem[]) {
  return choiceFromEnv(
    env,
    { variable: envVars.logLevel, field: 'logLevel', what: 'a log level', choices: logLevels },
    configured,
    problems,
  );
}

export function resolveLogFormat(env: Env, configured: LogFormat | undefined, problems: ConfigProblem[]) {
  return choiceFromEnv(
    env,
    { variable: envVars.logFormat, field: 'logFormat', what: 'a log format', choices: logFormats },
    configured,
    problems,
  );
}

/** A setting of the file with a fixed set of values that an environment variable overrides. */
function choiceFromEnv<T extends string>(
  env: Env,
  setting: {
    readonly variable: string;
    readonly field: string;
    readonly what: string;
    readonly choices: readonly T[];
  },
  configured: T | undefined,
  problems: ConfigProblem[],
): T | undefined {
  const fromEnv = readEnv(env, setting.variable);
  if (fromEnv === undefined) return configured;
  const value = fromEnv.trim().toLowerCase();
  const chosen = setting.choices.find((choice) => choice === value);
  if (chosen !== undefined) return chosen;
  problems.push({
    code: 'env_invalid',
    path: `env ${setting.variable}`,
    message: `is not ${setting.what}`,
    fix: `use one of ${setting.choices.join(', ')}, or unset it to use ${setting.field} from the file`,
  });
  return undefined;
}

export function resolveApi(env: Env, section: ConfigFile['api'] | undefined, problems: ConfigProblem[]) {
  const fromEnv = readEnv(env, envVars.apiBaseUrl);
  const where = fromEnv !== undefined ? `env ${envVars.apiBaseUrl}` : 'api.baseUrl';
  const value = fromEnv ?? section?.baseUrl;
  if (value === undefined) {
    // Reported even when the section failed to parse only if the failure was not about baseUrl itself.
    if (section !== undefined) {
      problems.push({
        code: 'env_missing',
        path: 'api.baseUrl',
        message: 'no API base URL is configured',
        fix: `set api.baseUrl in the file or ${envVars.apiBaseUrl} to the address of the platform's Project Data API (fundbot does not guess it, since it sends API keys there)`,
      });
    }
    return undefined;
  }
  const url = checkServiceUrl(value, where, 'the API keys', problems);
  if (url === undefined) return undefined;
  const problem = (message: string, fix: string) =>
    problems.push({ code: 'invalid_value', path: where, message, fix });
  if (url.hostname === 'example' || url.hostname.endsWith('.example')) {
    // The example config's address: starting on it would look "running" while polling nothing.
    problem(
      `is a placeholder (${url.hostname}, from the example config)`,
      `set the address of your platform's Project Data API in api.baseUrl or ${envVars.apiBaseUrl}`,
    );
    return undefined;
  }
  if (section === undefined) return undefined;
  const userKey = resolveUserKey(env, section.userKey, problems);
  if (userKey === null) return undefined;
  return {
    baseUrl: baseOf(url),
    timeoutMs: section.timeoutMs,
    hedgeAfterMs: section.hedgeAfterMs,
    ...(userKey ? { userKey } : {}),
  };
}

/** FUNDBOT_USER_KEY when set and not switched off (`api.userKey: false`); null after a problem. */
function resolveUserKey(env: Env, enabled: boolean, problems: ConfigProblem[]): UserKey | undefined | null {
  const raw = readEnv(env, envVars.userKey);
  if (raw === undefined || !enabled) return undefined;
  try {
    return parseUserKey(raw.trim());
  } catch (error) {
    // The format error never contains the value.
    const reason = error instanceof ApiKeyFormatError ? error.message : 'is not a User API key';
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.userKey}`,
      message: reason,
      fix: `set it to a User API key (${USER_KEY_PREFIX}…, account settings → API and integrations, scope project:read), unset it, or set api.userKey to false`,
    });
    return null;
  }
}

export function resolveStore(env: Env, section: ConfigFile['store'] | undefined, problems: ConfigProblem[]) {
  const fromEnv = readEnv(env, envVars.store);
  const url = fromEnv ?? section?.url;
  if (url === undefined) return undefined;
  if (!/^(memory:|sqlite:\/\/.+|redis:\/\/.+|rediss:\/\/.+)$/.test(url)) {
    problems.push({
      code: 'invalid_value',
      path: fromEnv !== undefined ? `env ${envVars.store}` : 'store.url',
      message: 'is not a supported store URL',
      fix: 'use sqlite://./data/fundbot.sqlite (one process), redis://host:6379 (several replicas) or memory: (tests; state is lost on exit)',
    });
    return undefined;
  }
  return { url, leaseTtlMs: section?.leaseTtlMs ?? 30_000 };
}

export function resolveHttp(env: Env, section: ConfigFile['http'] | undefined, problems: ConfigProblem[]) {
  const host = readEnv(env, envVars.healthHost);
  const withHost = section && host !== undefined ? { ...section, host } : section;
  const fromEnv = readEnv(env, envVars.port);
  if (fromEnv === undefined) return withHost;
  const port = Number(fromEnv);
  if (!/^\d+$/.test(fromEnv.trim()) || port < 1 || port > 65_535) {
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.port}`,
      message: 'is not a port number',
      fix: 'set it to a number between 1 and 65535, or unset it to use http.port from the file',
    });
    return undefined;
  }
  return withHost && { ...withHost, port };
}

/**
 * `publicUrl` or FUNDBOT_PUBLIC_URL: the https base Discord and Slack call (behind a reverse proxy). https only,
 * or http to this machine for local trials; no credentials, query or fragment. Undefined when not set.
 */
export function resolvePublicUrl(
  env: Env,
  fileValue: string | undefined,
  problems: ConfigProblem[],
): { ok: boolean; url: string | undefined } {
  const fromEnv = readEnv(env, envVars.publicUrl);
  const value = fromEnv ?? fileValue;
  if (value === undefined) return { ok: true, url: undefined };
  const where = fromEnv !== undefined ? `env ${envVars.publicUrl}` : 'publicUrl';
  const url = checkPublicUrl(value, where, problems);
  return url === undefined ? { ok: false, url: undefined } : { ok: true, url };
}
