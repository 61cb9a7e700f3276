import type { ProjectKey, UserKey } from '../api/index.js';
import type { Locale } from '../core/index.js';
import type { LogFormat, LogLevel } from '../ops/logger.js';
import type { ConfigProblem } from './config-problem.js';
import type { ConfigFile } from './schema.js';
import type { Secret } from './secret.js';

/** One watched project, with its key already parsed (the key object never reveals the secret). */
export interface ProjectConfig {
  readonly linkCaption: string;
  /** Name of the variable the key came from: safe to log. */
  readonly apiKeyEnv: string;
  readonly apiKey: ProjectKey;
  /** Ascending percentages of the goal. */
  readonly milestones: readonly number[];
  /** The file the key was read from (`<apiKeyEnv>_FILE`): watched, so a replaced key is used without a restart. */
  readonly apiKeyFile?: string;
}

export type DiscordConfig =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      /** Commands over the gateway (one session; on Redis only the "gateway" lease holder connects). */
      readonly mode: 'gateway';
      readonly token: Secret;
      readonly applicationId: string | undefined;
      /** REST base URL (SLACK_API_URL-style override); undefined = discord.com. */
      readonly apiUrl: string | undefined;
    }
  | {
      readonly enabled: true;
      /** Commands as signed HTTP interactions on `port`; no gateway; notices through REST. */
      readonly mode: 'http';
      readonly token: Secret;
      readonly applicationId: string;
      /** 64 hex characters, checked. */
      readonly publicKey: string;
      readonly port: number;
      readonly apiUrl: string | undefined;
    };

export type SlackConfig =
  | { readonly enabled: false }
  | {
      readonly enabled: true;
      readonly mode: 'socket';
      /** Web API base URL; undefined = slack.com. */
      readonly apiUrl: string | undefined;
      readonly botToken: Secret;
      readonly appToken: Secret;
      readonly admins: readonly string[];
    }
  | {
      readonly enabled: true;
      readonly mode: 'http';
      /** Web API base URL; undefined = slack.com. */
      readonly apiUrl: string | undefined;
      readonly port: number;
      readonly botToken: Secret;
      readonly signingSecret: Secret;
      readonly admins: readonly string[];
    }
  | {
      readonly enabled: true;
      /** Many workspaces: the OAuth install flow over HTTP on `port`, a bot token per installed workspace. */
      readonly mode: 'oauth';
      readonly apiUrl: string | undefined;
      readonly port: number;
      readonly clientId: string;
      readonly clientSecret: Secret;
      readonly stateSecret: Secret;
      readonly signingSecret: Secret;
      /** FUNDBOT_ENCRYPTION_KEY, checked to be 32 bytes in base64. */
      readonly encryptionKey: Secret;
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
  /** `userKey`: the User API key used as a change signal (FUNDBOT_USER_KEY), absent when unset or switched off. */
  readonly api: {
    readonly baseUrl: string;
    readonly timeoutMs: number;
    /** Copies of slow GETs after this many ms; 0: off. */
    readonly hedgeAfterMs: number;
    readonly userKey?: UserKey;
  };
  /** `leaseTtlMs`: with a redis:// store, a project lease's life without renewal (default 30 s). */
  readonly store: { readonly url: string; readonly leaseTtlMs: number };
  /** `publicUrl` / FUNDBOT_PUBLIC_URL: the https base Discord and Slack call; undefined when not configured. */
  readonly publicUrl: string | undefined;
  readonly locale: Locale;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly projects: readonly ProjectConfig[];
  readonly discord: DiscordConfig;
  readonly slack: SlackConfig;
  readonly digest: DigestConfig;
  /** The goal-pace alerts' window and the roll-call's time (issue 32). */
  readonly campaign: ConfigFile['campaign'];
  /** As in the file, plus `reserveFraction` = reservePct / 100 (what the engine's budget planner takes). */
  readonly engine: ConfigFile['engine'] & { readonly reserveFraction: number };
  readonly http: ConfigFile['http'];
  /** Projects connected from chat; `encryptionKey` (FUNDBOT_ENCRYPTION_KEY) is set exactly when enabled. */
  readonly hosted: ConfigFile['hosted'] & { readonly encryptionKey?: Secret };
}

export type LoadConfigResult =
  | { readonly ok: true; readonly config: FundbotConfig; readonly warnings: readonly ConfigProblem[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Reads a UTF-8 text file; throws Node's `ENOENT` error when it does not exist. */
export type ReadTextFile = (path: string) => string;
