import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ApiKeyFormatError, PROJECT_KEY_PREFIX, type ProjectKey, parseProjectKey } from '../api/index.js';
import type { Locale } from '../core/index.js';
import { findSecretKind, scrubSecrets } from '../lib/scrub-secrets.js';
import type { LogLevel } from '../ops/logger.js';
import { logLevels } from '../ops/logger.js';
import type { ConfigProblem } from './config-problem.js';
import { DEFAULT_CONFIG_PATH, type Env, envVars, readEnv } from './env-vars.js';
import { locateJsonError } from './locate-json-error.js';
import { type ConfigFile, configFileSchema } from './schema.js';
import { Secret } from './secret.js';

/** One watched project, with its key already parsed (the key object never reveals the secret). */
export interface ProjectConfig {
  readonly linkCaption: string;
  /** Name of the variable the key came from: safe to log. */
  readonly apiKeyEnv: string;
  readonly apiKey: ProjectKey;
  /** Ascending percentages of the goal. */
  readonly milestones: readonly number[];
  readonly defaultLocale: Locale;
}

export type DiscordConfig =
  | { readonly enabled: false }
  | { readonly enabled: true; readonly token: Secret; readonly applicationId: string | undefined };

export type SlackConfig =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      readonly mode: 'socket';
      readonly botToken: Secret;
      readonly appToken: Secret;
      readonly admins: readonly string[];
    }
  | {
      readonly enabled: true;
      readonly mode: 'http';
      readonly port: number;
      readonly botToken: Secret;
      readonly signingSecret: Secret;
      readonly admins: readonly string[];
    };

export interface DigestConfig {
  readonly enabled: boolean;
  /** "HH:MM" as configured. */
  readonly time: string;
  readonly hour: number;
  readonly minute: number;
  readonly timeZone: string;
  /** node-cron expression for `time` (pass `timeZone` as the cron option). */
  readonly cron: string;
}

/**
 * The validated configuration: the file with defaults, environment overrides
 * applied and secrets resolved. Secrets are {@link Secret} / ProjectKey objects,
 * so logging or serialising this object shows variable names, never values.
 */
export interface FundbotConfig {
  /** Path of the file it was read from. */
  readonly source: string;
  readonly api: { readonly baseUrl: string; readonly timeoutMs: number };
  readonly store: { readonly url: string };
  readonly locale: Locale;
  readonly logLevel: LogLevel;
  readonly projects: readonly ProjectConfig[];
  readonly discord: DiscordConfig;
  readonly slack: SlackConfig;
  readonly digest: DigestConfig;
  /** As in the file, plus `reserveFraction` = reservePct / 100 (what the engine's budget planner takes). */
  readonly engine: ConfigFile['engine'] & { readonly reserveFraction: number };
  readonly http: ConfigFile['http'];
}

export type LoadConfigResult =
  | { readonly ok: true; readonly config: FundbotConfig; readonly warnings: readonly ConfigProblem[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Reads a UTF-8 text file; throws Node's `ENOENT` error when it does not exist. */
export type ReadTextFile = (path: string) => string;

/** The real file system, for the composition root. */
export const readTextFileSync: ReadTextFile = (path) => readFileSync(path, 'utf8');

export interface LoadConfigOptions {
  readonly env: Env;
  readonly readFile: ReadTextFile;
}

/** The config path: `FUNDBOT_CONFIG` or `./fundbot.config.json`. */
export function configPath(env: Env): string {
  return readEnv(env, envVars.config) ?? DEFAULT_CONFIG_PATH;
}

/**
 * Reads and validates the configuration. Never throws for a configuration
 * mistake: every problem is collected (syntax, schema, unknown fields, secrets
 * in the file, missing or malformed environment variables, duplicates, clashes)
 * and returned at once, each with what to do. No problem text contains a secret.
 */
export function loadConfig(options: LoadConfigOptions): LoadConfigResult {
  const path = configPath(options.env);
  const read = readConfigFile(options.readFile, path);
  if (read.kind === 'missing') {
    return {
      ok: false,
      problems: [
        {
          code: 'file_not_found',
          path,
          message: 'the config file does not exist',
          fix: `copy fundbot.config.example.json to ${path} and edit it, or set ${envVars.config} to its path`,
        },
      ],
    };
  }
  if (read.kind === 'error') return { ok: false, problems: [read.problem] };
  return parseConfig(read.text, { env: options.env, source: path });
}

/** @internal Shared with resolveStartMode, which must tell "missing" from other failures. */
export function readConfigFile(
  readFile: ReadTextFile,
  path: string,
): { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'error'; problem: ConfigProblem } {
  try {
    return { kind: 'text', text: readFile(path) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return {
      kind: 'error',
      problem: {
        code: 'file_unreadable',
        path,
        message: `the config file cannot be read (${typeof code === 'string' ? code : 'read error'})`,
        fix: 'check that it is a file and readable by the user fundbot runs as',
      },
    };
  }
}

/**
 * Validates config file text against the schema and the environment. Same
 * contract as {@link loadConfig}; `source` only labels the file in messages.
 */
export function parseConfig(text: string, options: { env: Env; source: string }): LoadConfigResult {
  const { env, source } = options;
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];

  // A BOM is what Windows editors often write; JSON.parse rejects it, people should not have to care.
  const body = text.replace(/^\uFEFF/, '');
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    const where = locateJsonError(body);
    return {
      ok: false,
      problems: [
        {
          code: 'invalid_json',
          path: where ? `${source}:${where.line}:${where.column}` : source,
          message: `invalid JSON${where ? ` at line ${where.line}, column ${where.column}: ${where.reason}` : ''}`,
          fix: 'fix the syntax (JSON has no comments and no trailing commas); fundbot.config.example.json is a valid starting point',
        },
      ],
    };
  }

  problems.push(...findSecretsInFile(raw));
  const secretPaths = new Set(problems.map((p) => p.path));
  const parsed = configFileSchema.safeParse(raw);
  if (!parsed.success) {
    // A value already reported as a secret in the wrong place needs no second, vaguer message.
    problems.push(...issuesToProblems(parsed.error.issues).filter((p) => !secretPaths.has(p.path)));
  }

  // Cross-checks run on every section that parsed on its own, so one bad field elsewhere
  // does not hide a missing environment variable: the operator gets the whole list at once.
  const file = isRecord(raw) ? raw : {};
  const section = <K extends keyof ConfigFile>(key: K): ConfigFile[K] | undefined => {
    const result = (configFileSchema.shape[key] as unknown as z.ZodType<ConfigFile[K]>).safeParse(file[key]);
    return result.success ? result.data : undefined;
  };

  const locale = section('locale');
  const logLevel = resolveLogLevel(env, section('logLevel'), problems);
  const api = resolveApi(env, section('api'), problems);
  const store = resolveStore(env, section('store'), problems);
  const http = resolveHttp(env, section('http'), problems);
  const projects = resolveProjects(env, file['projects'], locale ?? 'en', problems);
  const discord = resolveDiscord(env, section('discord'), problems, warnings);
  const slack = resolveSlack(env, section('slack'), http, problems, warnings);
  const digest = section('digest');

  if (discord?.enabled === false && slack?.enabled === false) {
    warnings.push({
      code: 'invalid_value',
      path: 'discord.enabled, slack.enabled',
      message: 'no chat platform is enabled, so notices go nowhere',
      fix: 'set discord.enabled or slack.enabled to true',
    });
  }

  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  // Every resolver succeeded when no problem was recorded; the checks keep the types honest.
  if (!api || !store || !http || !projects || !discord || !slack || !digest || !logLevel) {
    throw new Error('internal: configuration resolved without problems but incompletely');
  }
  const [hour, minute] = digest.time.split(':').map(Number) as [number, number];
  const config: FundbotConfig = {
    source,
    api,
    store,
    locale: parsed.data.locale,
    logLevel,
    projects,
    discord,
    slack,
    digest: { ...digest, hour, minute, cron: `${minute} ${hour} * * *` },
    engine: { ...parsed.data.engine, reserveFraction: parsed.data.engine.reservePct / 100 },
    http,
  };
  return { ok: true, config, warnings };
}

// ---------------------------------------------------------------------------------------------
// Section resolvers: each reads its file section (undefined when it did not parse) and the
// environment, records problems, and returns the resolved value or undefined.

function resolveLogLevel(env: Env, configured: LogLevel | undefined, problems: ConfigProblem[]) {
  const fromEnv = readEnv(env, envVars.logLevel);
  if (fromEnv === undefined) return configured;
  const level = fromEnv.trim().toLowerCase();
  if ((logLevels as readonly string[]).includes(level)) return level as LogLevel;
  problems.push({
    code: 'env_invalid',
    path: `env ${envVars.logLevel}`,
    message: 'is not a log level',
    fix: `use one of ${logLevels.join(', ')}, or unset it to use logLevel from the file`,
  });
  return undefined;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function resolveApi(env: Env, section: ConfigFile['api'] | undefined, problems: ConfigProblem[]) {
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
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push({
      code: 'invalid_value',
      path: where,
      message: 'is not an absolute URL',
      fix: 'write it with scheme and host, e.g. https://api.example.org',
    });
    return undefined;
  }
  const problem = (message: string, fix: string) =>
    problems.push({ code: 'invalid_value', path: where, message, fix });
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problem('must be an http(s) URL', 'use the https:// address of the API');
    return undefined;
  }
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    problem(
      'uses plain http to a remote host, which would send the API keys unencrypted',
      'use https://, or http:// only for localhost (the simulator)',
    );
    return undefined;
  }
  if (url.username !== '' || url.password !== '') {
    problem(
      'contains credentials',
      'remove user:password@ from the URL: API keys come from projects[].apiKeyEnv',
    );
    return undefined;
  }
  if (url.search !== '' || url.hash !== '') {
    problem('has a query or fragment', 'give only scheme, host and optional base path');
    return undefined;
  }
  if (section === undefined) return undefined;
  return { baseUrl: url.href.replace(/\/+$/, ''), timeoutMs: section.timeoutMs };
}

function resolveStore(env: Env, section: ConfigFile['store'] | undefined, problems: ConfigProblem[]) {
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
  return { url };
}

function resolveHttp(env: Env, section: ConfigFile['http'] | undefined, problems: ConfigProblem[]) {
  const fromEnv = readEnv(env, envVars.port);
  if (fromEnv === undefined) return section;
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
  return section && { ...section, port };
}

function resolveProjects(
  env: Env,
  raw: unknown,
  locale: Locale,
  problems: ConfigProblem[],
): ProjectConfig[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const projectSchema = configFileSchema.shape.projects.element;
  const resolved: ProjectConfig[] = [];
  const seenCaptions = new Map<string, number>();
  const seenEnv = new Map<string, number>();
  let complete = true;
  raw.forEach((item: unknown, index) => {
    const parsed = projectSchema.safeParse(item);
    if (!parsed.success) {
      complete = false;
      return;
    }
    const project = parsed.data;
    const at = `projects[${index}]`;
    const caption = project.linkCaption.toLowerCase();
    const firstCaption = seenCaptions.get(caption);
    if (firstCaption !== undefined) {
      problems.push({
        code: 'duplicate',
        path: `${at}.linkCaption`,
        message: `"${project.linkCaption}" is already listed as projects[${firstCaption}]`,
        fix: 'list each project once',
      });
      complete = false;
    } else seenCaptions.set(caption, index);
    const firstEnv = seenEnv.get(project.apiKeyEnv);
    if (firstEnv !== undefined) {
      problems.push({
        code: 'duplicate',
        path: `${at}.apiKeyEnv`,
        message: `${project.apiKeyEnv} is already the key variable of projects[${firstEnv}]`,
        fix: 'a Project API key works for one project only: give each project its own key and variable',
      });
      complete = false;
    } else seenEnv.set(project.apiKeyEnv, index);

    const apiKey = resolveProjectKey(
      env,
      project.linkCaption,
      project.apiKeyEnv,
      `${at}.apiKeyEnv`,
      problems,
    );
    if (apiKey === undefined) {
      complete = false;
      return;
    }
    resolved.push({
      linkCaption: project.linkCaption,
      apiKeyEnv: project.apiKeyEnv,
      apiKey,
      milestones: project.milestones,
      defaultLocale: project.defaultLocale ?? locale,
    });
  });
  return complete ? resolved : undefined;
}

const KEY_SOURCE = 'project administration → API keys';

function resolveProjectKey(
  env: Env,
  linkCaption: string,
  name: string,
  path: string,
  problems: ConfigProblem[],
): ProjectKey | undefined {
  const raw = readEnv(env, name);
  if (raw === undefined) {
    problems.push({
      code: 'env_missing',
      path,
      message: `${name} is not set`,
      fix: `export it with the Project API key of "${linkCaption}" from ${KEY_SOURCE} (scopes: project:read, fundings:read, incentives:read, blog:read, wall:read)`,
    });
    return undefined;
  }
  if (!raw.startsWith(PROJECT_KEY_PREFIX)) {
    const userKey = raw.startsWith('svc_user_');
    problems.push({
      code: 'key_format',
      path,
      message: `${name} has a wrong prefix: a Project API key starts with ${PROJECT_KEY_PREFIX}…${userKey ? ', this is a User API key (svc_user_…)' : ''}`,
      fix: `export the Project API key of "${linkCaption}" from ${KEY_SOURCE}`,
    });
    return undefined;
  }
  try {
    return parseProjectKey(raw);
  } catch (error) {
    // ApiKeyFormatError messages never contain the value (src/api/credentials.ts).
    if (!(error instanceof ApiKeyFormatError)) throw error;
    problems.push({
      code: 'key_format',
      path,
      message: `${name} is not a valid Project API key`,
      fix: error.message,
    });
    return undefined;
  }
}

function resolveDiscord(
  env: Env,
  section: ConfigFile['discord'] | undefined,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): DiscordConfig | undefined {
  const token = readEnv(env, envVars.discordToken);
  const applicationId = readEnv(env, envVars.discordApplicationId);
  if (section === undefined) return undefined;
  if (!section.enabled) {
    if (token !== undefined) warnings.push(setButDisabled(envVars.discordToken, 'discord.enabled'));
    return { enabled: false };
  }
  let ok = true;
  if (token === undefined) {
    ok = false;
    problems.push({
      code: 'env_missing',
      path: 'discord.enabled',
      message: `Discord is enabled but ${envVars.discordToken} is not set`,
      fix: `export ${envVars.discordToken} with the bot token (Discord Developer Portal → your application → Bot → Reset Token), or set discord.enabled to false`,
    });
  } else if (/\s/.test(token) || /^Bot\b/i.test(token)) {
    ok = false;
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.discordToken}`,
      message: 'contains whitespace or a "Bot " prefix',
      fix: 'set only the token itself, without "Bot " and without spaces or line breaks',
    });
  }
  if (applicationId !== undefined && !/^\d{15,22}$/.test(applicationId)) {
    ok = false;
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.discordApplicationId}`,
      message: 'is not a Discord application id (a number of 15 to 22 digits)',
      fix: 'copy the Application ID from the Discord Developer Portal → General Information',
    });
  }
  if (!ok || token === undefined) return undefined;
  return { enabled: true, token: new Secret(envVars.discordToken, token), applicationId };
}

function resolveSlack(
  env: Env,
  section: ConfigFile['slack'] | undefined,
  http: ConfigFile['http'] | undefined,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): SlackConfig | undefined {
  const botToken = readEnv(env, envVars.slackBotToken);
  if (section === undefined) return undefined;
  if (!section.enabled) {
    if (botToken !== undefined) warnings.push(setButDisabled(envVars.slackBotToken, 'slack.enabled'));
    return { enabled: false };
  }
  const before = problems.length;
  const bot = requireToken(
    env,
    envVars.slackBotToken,
    'xoxb-',
    'the bot token (Slack app → OAuth & Permissions → Bot User OAuth Token)',
    problems,
  );
  if (section.mode === 'socket') {
    const app = requireToken(
      env,
      envVars.slackAppToken,
      'xapp-',
      'an app-level token with connections:write (Slack app → Basic Information → App-Level Tokens); Socket Mode needs it',
      problems,
    );
    if (problems.length > before || !bot || !app) return undefined;
    return { enabled: true, mode: 'socket', botToken: bot, appToken: app, admins: section.admins };
  }
  const signing = requireToken(
    env,
    envVars.slackSigningSecret,
    '',
    'the signing secret (Slack app → Basic Information → App Credentials); HTTP mode verifies every request with it',
    problems,
  );
  if (http?.enabled && http.port === section.port) {
    problems.push({
      code: 'port_clash',
      path: 'slack.port',
      message: `Slack HTTP mode and the health/metrics server both want port ${section.port}`,
      fix: 'give slack.port and http.port (or PORT) different values',
    });
  }
  if (problems.length > before || !bot || !signing) return undefined;
  return {
    enabled: true,
    mode: 'http',
    port: section.port,
    botToken: bot,
    signingSecret: signing,
    admins: section.admins,
  };
}

function requireToken(
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

function setButDisabled(variable: string, field: string): ConfigProblem {
  return {
    code: 'invalid_value',
    path: field,
    message: `${variable} is set but ${field} is false, so that platform stays off`,
    fix: `set ${field} to true to use it, or unset ${variable}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Schema issues and secrets found in the file.

const SECRET_FIXES: Record<string, string> = {
  'platform API key': `API keys are read only from the environment: name a variable in projects[].apiKeyEnv, export the key there and remove it from the file; since the key was written to disk, consider replacing it (${KEY_SOURCE})`,
  'Slack token': `move it to ${envVars.slackBotToken} and remove it from the file`,
  'Slack app token': `move it to ${envVars.slackAppToken} and remove it from the file`,
  'Discord token': `move it to ${envVars.discordToken} and remove it from the file`,
  'password in a URL': `set the URL with its password in ${envVars.store} and remove the password from the file`,
};

/** Secret-shaped strings anywhere in the file (values and field names): the file is meant to be shareable. */
function findSecretsInFile(raw: unknown, path: (string | number)[] = []): ConfigProblem[] {
  if (typeof raw === 'string') {
    const kind = findSecretKind(raw);
    if (kind === undefined) return [];
    return [
      {
        code: 'secret_in_file',
        path: formatPath(path),
        message: `holds what looks like a ${kind}; the config file must not contain secrets`,
        fix: SECRET_FIXES[kind] ?? 'move the secret to an environment variable and remove it from the file',
      },
    ];
  }
  if (Array.isArray(raw)) return raw.flatMap((item, i) => findSecretsInFile(item, [...path, i]));
  if (isRecord(raw)) {
    return Object.entries(raw).flatMap(([key, value]) => {
      const inKey = findSecretsInFile(key, [...path, '(a field name)']);
      return [...inKey, ...findSecretsInFile(value, [...path, key])];
    });
  }
  return [];
}

const SECRETISH_FIELD = /token|secret|password|apikey$|^key$/i;

function issuesToProblems(issues: readonly z.core.$ZodIssue[]): ConfigProblem[] {
  return issues.flatMap((issue): ConfigProblem[] => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = knownFieldsAt(issue.path);
      // A secret used as a field name is already reported by findSecretsInFile, without the name.
      return issue.keys
        .filter((key) => findSecretKind(key) === undefined)
        .map((key) => {
          const suggestion = closest(key, known);
          const fix = SECRETISH_FIELD.test(key)
            ? 'secrets do not belong in the file: remove it and set the environment variable instead (see docs/configuration.md)'
            : suggestion
              ? `did you mean "${suggestion}"?`
              : `remove it; known fields here: ${known.join(', ') || 'none'}`;
          return {
            code: 'unknown_key',
            path: joinPath(path, key),
            message: 'unknown field',
            fix,
          };
        });
    }
    const missing = issue.code === 'invalid_type' && /received undefined$/.test(issue.message);
    return [
      {
        code: 'invalid_value',
        path,
        message: missing ? `is required (${issue.expected})` : describeIssue(issue),
        fix:
          FIELD_FIXES[genericPath(issue.path)] ??
          `see docs/configuration.md, section ${String(issue.path[0] ?? 'top level')}`,
      },
    ];
  });
}

/** zod's messages start with "Invalid input: …"; ours (from the schema) already say what is expected. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  return message.charAt(0).toLowerCase() + message.slice(1);
}

const FIELD_FIXES: Record<string, string> = {
  projects: 'add {"linkCaption": "<slug>", "apiKeyEnv": "<VARIABLE>"} for each project to watch',
  'projects[].linkCaption': 'copy the slug from the project URL, e.g. "solar-kiosk"',
  'projects[].apiKeyEnv':
    'name the variable holding the key, e.g. "SOLAR_KIOSK_API_KEY", and export the key there',
  'projects[].milestones': 'list percentages of the goal, e.g. [25, 50, 100, 150]',
  'digest.time': 'write the local time as "HH:MM", e.g. "09:00" or "18:30"',
  'digest.timeZone': 'use an IANA time zone such as "Europe/Berlin" or "UTC"',
  'slack.mode': 'use "socket" (no public URL needed) or "http"',
  'slack.admins': 'list Slack member ids such as "U012ABCDEF"',
  'engine.reservePct': 'use a percentage between 0 and 90',
  locale: 'use "en" or "de"',
  logLevel: `use one of ${logLevels.join(', ')}`,
};

function genericPath(path: readonly PropertyKey[]): string {
  return formatPath(path.map((segment) => (typeof segment === 'number' ? '[]' : segment))).replace(
    /\.\[\]/g,
    '[]',
  );
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (segment === '[]') out += '[]';
    // Field names come from the file: scrub them like any other text from it.
    else out = joinPath(out, scrubSecrets(String(segment)));
  }
  return out || '(top level)';
}

function joinPath(base: string, key: string): string {
  return base === '' || base === '(top level)' ? key : `${base}.${key}`;
}

/** Field names the schema knows at `path` (for "did you mean"). */
function knownFieldsAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType = configFileSchema;
  const unwrap = (s: z.core.$ZodType): z.core.$ZodType => {
    const def = s._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.innerType) return unwrap(def.innerType);
    if (def.type === 'pipe' && def.in) return unwrap(def.in);
    return s;
  };
  for (const segment of path) {
    const def = unwrap(schema)._zod.def as {
      type: string;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
    };
    const next = typeof segment === 'number' ? def.element : def.shape?.[String(segment)];
    if (!next) return [];
    schema = next;
  }
  const shape = (unwrap(schema)._zod.def as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/** The known name within edit distance 2 (case-insensitive), if any. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
