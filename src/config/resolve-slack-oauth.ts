import type { ConfigProblem } from './config-problem.js';
import type { SlackConfig } from './config-types.js';
import { type Env, envVars, readEnv } from './env-vars.js';
import { platformUrl, requireToken } from './platform-credentials.js';
import type { ConfigFile } from './schema.js';
import { Secret } from './secret.js';

/** Basic Information → App Credentials → Client ID: two numbers joined by a dot. */
const CLIENT_ID = /^\d+\.\d+$/;
const ENCRYPTION_KEY_BYTES = 32;
/** The state secret signs install states (HMAC-SHA256): at least as many characters as `openssl rand -hex 16` gives. */
export const STATE_SECRET_MIN_CHARS = 32;

/** True when any OAuth setting is present: then all of them must be (a half-configured install flow is a mistake). */
export function wantsSlackOAuth(env: Env, section: ConfigFile['slack']): boolean {
  return (
    section.clientId !== undefined ||
    readEnv(env, envVars.slackClientSecret) !== undefined ||
    readEnv(env, envVars.slackStateSecret) !== undefined
  );
}

/**
 * Slack for many workspaces: `slack.clientId` with SLACK_CLIENT_SECRET, SLACK_STATE_SECRET,
 * FUNDBOT_ENCRYPTION_KEY and SLACK_SIGNING_SECRET (commands and events arrive over HTTP). Each missing
 * part is named with where to get it; SLACK_BOT_TOKEN is not used (every workspace gets its own token).
 */
export function resolveSlackOAuth(
  env: Env,
  section: ConfigFile['slack'],
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): SlackConfig | undefined {
  const before = problems.length;
  const apiUrl = platformUrl(
    env,
    envVars.slackApiUrl,
    section.apiUrl,
    'slack.apiUrl',
    'the Slack secrets',
    problems,
  ).url;
  const partial =
    'the Slack OAuth install flow (many workspaces) needs slack.clientId, SLACK_CLIENT_SECRET, SLACK_STATE_SECRET and FUNDBOT_ENCRYPTION_KEY together';
  if (section.clientId === undefined) {
    problems.push({
      code: 'env_missing',
      path: 'slack.clientId',
      message: `is not set, but other OAuth settings are: ${partial}`,
      fix: 'copy the Client ID from your Slack app → Basic Information → App Credentials into slack.clientId, or unset SLACK_CLIENT_SECRET and SLACK_STATE_SECRET to use one workspace with SLACK_BOT_TOKEN',
    });
  } else if (!CLIENT_ID.test(section.clientId)) {
    problems.push({
      code: 'invalid_value',
      path: 'slack.clientId',
      message: 'is not a Slack client id (two numbers joined by a dot, e.g. 1234567890.9876543210)',
      fix: 'copy the Client ID from your Slack app → Basic Information → App Credentials',
    });
  }
  if (section.mode !== 'http') {
    problems.push({
      code: 'invalid_value',
      path: 'slack.mode',
      message:
        'is "socket", but the OAuth install flow (slack.clientId) runs over HTTP: Slack redirects the installing admin to fundbot and posts commands to it',
      fix: 'set slack.mode to "http" (and a public https URL in front of slack.port), or remove slack.clientId to use Socket Mode with one workspace',
    });
  }
  const need = (name: string, what: string) => requireToken(env, name, '', `${what} (${partial})`, problems);
  const clientSecret = need(
    envVars.slackClientSecret,
    'the client secret from your Slack app → Basic Information → App Credentials',
  );
  const stateSecret = need(
    envVars.slackStateSecret,
    'a long random string of your own (e.g. `openssl rand -hex 32`); it signs the install state',
  );
  if (stateSecret && stateSecret.reveal().length < STATE_SECRET_MIN_CHARS) {
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.slackStateSecret}`,
      message: `is ${stateSecret.reveal().length} characters long; it must have at least ${STATE_SECRET_MIN_CHARS} (a short secret lets anyone forge install states)`,
      fix: `export ${envVars.slackStateSecret}="$(openssl rand -hex 32)"`,
    });
  }
  const encryptionKey = resolveEncryptionKey(env, partial, problems);
  const signingSecret = need(
    envVars.slackSigningSecret,
    'the signing secret (Slack app → Basic Information → App Credentials); every request is verified with it',
  );
  if (readEnv(env, envVars.slackBotToken) !== undefined) {
    warnings.push({
      code: 'invalid_value',
      path: `env ${envVars.slackBotToken}`,
      message:
        'is set but not used: with slack.clientId every workspace installs fundbot and gets its own token',
      fix: `unset ${envVars.slackBotToken}, or remove slack.clientId to run in one workspace with it`,
    });
  }
  if (
    problems.length > before ||
    section.clientId === undefined ||
    !clientSecret ||
    !stateSecret ||
    !encryptionKey ||
    !signingSecret
  ) {
    return undefined;
  }
  return {
    enabled: true,
    mode: 'oauth',
    apiUrl,
    port: section.port,
    clientId: section.clientId,
    clientSecret,
    stateSecret,
    signingSecret,
    encryptionKey,
    admins: section.admins,
  };
}

/** FUNDBOT_ENCRYPTION_KEY: 32 bytes in base64; the message gives its length, never its value. */
export function resolveEncryptionKey(
  env: Env,
  partial: string,
  problems: ConfigProblem[],
): Secret | undefined {
  const name = envVars.encryptionKey;
  const value = readEnv(env, name)?.trim();
  const fix = `export ${name} with 32 random bytes in base64: \`openssl rand -base64 32\`; keep it safe, without it the stored Slack installations cannot be read`;
  if (value === undefined) {
    problems.push({ code: 'env_missing', path: `env ${name}`, message: `is not set: ${partial}`, fix });
    return undefined;
  }
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64').length : 0;
  if (bytes !== ENCRYPTION_KEY_BYTES) {
    problems.push({
      code: 'env_invalid',
      path: `env ${name}`,
      message: `must be ${ENCRYPTION_KEY_BYTES} bytes in base64, but ${bytes === 0 ? 'is not base64' : `decodes to ${bytes} bytes`}`,
      fix,
    });
    return undefined;
  }
  return new Secret(name, value);
}
