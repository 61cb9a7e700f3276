/**
 * Every environment variable fundbot reads (besides the per-project API key
 * variables the config file names in `projects[].apiKeyEnv`). Secrets come only
 * from here, never from the config file.
 */
export const envVars = {
  /** Path of the config file. Default `./fundbot.config.json`. */
  config: 'FUNDBOT_CONFIG',
  /** Overrides `store.url` (e.g. a Redis URL with its password). */
  store: 'FUNDBOT_STORE',
  /** Overrides `api.baseUrl`. */
  apiBaseUrl: 'FUNDBOT_API_BASE_URL',
  /** Optional User API key `svc_user_…` with project:read: a change signal for every own project. Secret. */
  userKey: 'FUNDBOT_USER_KEY',
  /** Overrides `logLevel`. */
  logLevel: 'LOG_LEVEL',
  /** Overrides `logFormat`: `json` (default) or `pretty` (readable in a terminal). */
  logFormat: 'LOG_FORMAT',
  /** Overrides `http.port` (health and metrics). */
  port: 'PORT',
  /** Overrides `http.host`; the Docker image sets 0.0.0.0 (inside a container 127.0.0.1 is unreachable). */
  healthHost: 'FUNDBOT_HEALTH_HOST',
  /** Set by the Docker image: a missing config is then an error that says how to mount one. */
  container: 'FUNDBOT_CONTAINER',
  /** Discord bot token (Developer Portal → your app → Bot → Reset Token). Secret. */
  discordToken: 'DISCORD_TOKEN',
  /** Discord application id (General Information → Application ID); registers commands; http mode's webhooks. */
  discordApplicationId: 'DISCORD_APPLICATION_ID',
  /** Overrides `discord.publicKey`: the application's Ed25519 public key (64 hex), for `discord.mode` http. Not secret. */
  discordPublicKey: 'DISCORD_PUBLIC_KEY',
  /** Overrides `publicUrl`: the https base under which Discord and Slack reach fundbot. Not secret. */
  publicUrl: 'FUNDBOT_PUBLIC_URL',
  /** Slack bot token `xoxb-…` (OAuth & Permissions). Secret. */
  slackBotToken: 'SLACK_BOT_TOKEN',
  /** Slack app-level token `xapp-…` with connections:write, for Socket Mode. Secret. */
  slackAppToken: 'SLACK_APP_TOKEN',
  /** Slack signing secret (Basic Information → App Credentials), for HTTP mode. Secret. */
  slackSigningSecret: 'SLACK_SIGNING_SECRET',
  /** Slack client secret (Basic Information → App Credentials), for the OAuth install flow (`slack.clientId`). Secret. */
  slackClientSecret: 'SLACK_CLIENT_SECRET',
  /** Any long random string: signs the OAuth `state` so a redirect only finishes an install fundbot started. Secret. */
  slackStateSecret: 'SLACK_STATE_SECRET',
  /** 32 random bytes in base64 (`openssl rand -base64 32`): encrypts the Slack installations at rest. Secret. */
  encryptionKey: 'FUNDBOT_ENCRYPTION_KEY',
  /**
   * Overrides `slack.apiUrl`: the Slack Web API base (default https://slack.com/api/), e.g. Slack for government or
   * an egress proxy; https, or http only to localhost (a local fake). Handed to the Slack adapter's `apiUrl`.
   */
  slackApiUrl: 'SLACK_API_URL',
  /**
   * Overrides `discord.apiUrl`: the Discord REST base without the version (default https://discord.com/api); https,
   * or http only to localhost (a local fake). Handed to the Discord adapter's `apiUrl` (discord.js `rest.api`).
   */
  discordApiUrl: 'DISCORD_API_URL',
} as const;

/**
 * The variables that hold a secret: each may instead be given as a file (`<name>_FILE`, a
 * Docker or Kubernetes secret), as may the configured projects' `apiKeyEnv` variables. No
 * other `*_FILE` variable is read: the environment holds plenty of them that are not
 * fundbot's (`SSL_CERT_FILE`, `TF_CLI_CONFIG_FILE`, `KUBECONFIG`-style paths).
 */
export const secretEnvVars: readonly string[] = [
  envVars.store,
  envVars.userKey,
  envVars.discordToken,
  envVars.slackBotToken,
  envVars.slackAppToken,
  envVars.slackSigningSecret,
  envVars.slackClientSecret,
  envVars.slackStateSecret,
  envVars.encryptionKey,
];

/** The default config path, relative to the working directory. */
export const DEFAULT_CONFIG_PATH = './fundbot.config.json';

/** The process environment as fundbot reads it (`process.env` fits). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The value of `name`, or undefined when unset or empty: `VAR=` in a Docker env
 * file or a compose file means "not configured", not "an empty token".
 */
export function readEnv(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}
