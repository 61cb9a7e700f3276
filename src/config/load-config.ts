import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { ConfigProblem } from './config-problem.js';
import type { FundbotConfig, LoadConfigResult, ReadTextFile } from './config-types.js';
import { DEFAULT_CONFIG_PATH, type Env, envVars, readEnv } from './env-vars.js';
import { checkConfigShape, checkConfigSize } from './file-limits.js';
import { findSecretsInFile, isRecord, issuesToProblems } from './file-problems.js';
import { parseConfigText } from './parse-config-text.js';
import { resolveSlack } from './resolve-chat-platforms.js';
import { resolveDiscord } from './resolve-discord.js';
import { resolveProjects } from './resolve-projects.js';
import {
  resolveApi,
  resolveHttp,
  resolveLogFormat,
  resolveLogLevel,
  resolvePublicUrl,
  resolveStore,
} from './resolve-runtime-sections.js';
import { resolveEncryptionKey } from './resolve-slack-oauth.js';
import { type ConfigFile, configFileSchema } from './schema.js';
import { expandSecretFiles } from './secret-files.js';

export type {
  DigestConfig,
  DiscordConfig,
  FundbotConfig,
  LoadConfigResult,
  ProjectConfig,
  ReadTextFile,
  SlackConfig,
} from './config-types.js';

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
  return parseConfig(read.text, { env: options.env, source: path, readFile: options.readFile });
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
 * `readFile` reads the secrets given as `*_FILE` variables (default: the real file system).
 */
export function parseConfig(
  text: string,
  options: { env: Env; source: string; readFile?: ReadTextFile },
): LoadConfigResult {
  const { source } = options;
  const problems: ConfigProblem[] = [];
  const warnings: ConfigProblem[] = [];

  const tooLarge = checkConfigSize(text, source);
  if (tooLarge) return { ok: false, problems: [tooLarge] };
  // A BOM is what Windows editors often write; people should not have to care.
  const text_ = parseConfigText(text.replace(/^\uFEFF/, ''));
  if (!text_.ok) {
    const where = `line ${text_.line}, column ${text_.column}`;
    return {
      ok: false,
      problems: [
        text_.kind === 'too-deep'
          ? {
              code: 'invalid_value',
              path: `${source}:${text_.line}:${text_.column}`,
              message: `${text_.reason} (${where})`,
              fix: "remove the nested part: fundbot's settings go at most three levels deep (see fundbot.config.example.json)",
            }
          : {
              code: 'invalid_json',
              path: `${source}:${text_.line}:${text_.column}`,
              message: `invalid JSON at ${where}: ${text_.reason}`,
              fix: 'fix the syntax (comments and trailing commas are allowed); fundbot.config.example.json is a valid starting point',
            },
      ],
    };
  }
  const raw = text_.value;

  // Every check below walks the file: one far outside a config's size and depth is refused first.
  const outOfBounds = checkConfigShape(raw);
  if (outOfBounds.length > 0) return { ok: false, problems: outOfBounds };
  // The secret variables (and the projects' key variables the file names) may come from files.
  const secretFiles = expandSecretFiles(
    options.env,
    options.readFile ?? readTextFileSync,
    projectKeyVarsOf(raw),
  );
  const env = secretFiles.env;
  problems.push(...secretFiles.problems);
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

  const logLevel = resolveLogLevel(env, section('logLevel'), problems);
  const logFormat = resolveLogFormat(env, section('logFormat'), problems);
  const api = resolveApi(env, section('api'), problems);
  const store = resolveStore(env, section('store'), problems);
  const http = resolveHttp(env, section('http'), problems);
  const projects = resolveProjects(env, secretFiles.files, file['projects'], problems);
  const publicUrl = resolvePublicUrl(
    env,
    typeof file['publicUrl'] === 'string' ? file['publicUrl'] : undefined,
    problems,
  );
  const discord = resolveDiscord(
    env,
    section('discord'),
    { http, slack: section('slack') },
    problems,
    warnings,
  );
  const slack = resolveSlack(env, section('slack'), http, problems, warnings);
  const digest = section('digest');
  const hosted = section('hosted');
  const hostedKey = hosted?.enabled
    ? resolveEncryptionKey(
        env,
        'hosted.enabled lets workspaces connect their own projects, whose keys are sealed with it',
        problems,
      )
    : undefined;

  if (discord?.enabled === false && slack?.enabled === false) {
    warnings.push({
      code: 'invalid_value',
      path: 'discord.enabled, slack.enabled',
      message: 'no chat platform is enabled, so notices go nowhere',
      fix: 'set discord.enabled or slack.enabled to true',
    });
  }

  if (!parsed.success || problems.length > 0) {
    // A value already reported as a secret in the file needs no second, vaguer message at the same place.
    const secretAt = new Set(problems.filter((p) => p.code === 'secret_in_file').map((p) => p.path));
    return {
      ok: false,
      problems: problems.filter((p) => p.code === 'secret_in_file' || !secretAt.has(p.path)),
    };
  }
  // Every resolver succeeded when no problem was recorded; the checks keep the types honest.
  if (
    !api ||
    !store ||
    !http ||
    !projects ||
    !discord ||
    !slack ||
    !digest ||
    !hosted ||
    !logLevel ||
    !logFormat ||
    !publicUrl.ok
  ) {
    throw new Error('internal: configuration resolved without problems but incompletely');
  }
  const [hour, minute] = digest.time.split(':').map(Number) as [number, number];
  const config: FundbotConfig = {
    source,
    api,
    store,
    publicUrl: publicUrl.url,
    locale: parsed.data.locale,
    logLevel,
    logFormat,
    projects,
    discord,
    slack,
    digest: { ...digest, hour, minute, cron: `${minute} ${hour} * * *` },
    campaign: parsed.data.campaign,
    engine: { ...parsed.data.engine, reserveFraction: parsed.data.engine.reservePct / 100 },
    http,
    hosted: { ...hosted, ...(hostedKey ? { encryptionKey: hostedKey } : {}) },
  };
  return { ok: true, config, warnings };
}

/** The `apiKeyEnv` names in the file, read leniently (the schema reports what is wrong with them). */
function projectKeyVarsOf(raw: unknown): string[] {
  const projects = isRecord(raw) ? raw['projects'] : undefined;
  if (!Array.isArray(projects)) return [];
  return projects.flatMap((project: unknown) => {
    const name = isRecord(project) ? project['apiKeyEnv'] : undefined;
    return typeof name === 'string' && name !== '' ? [name] : [];
  });
}
