import type { ConfigProblem } from './config-problem.js';
import type { DiscordConfig } from './config-types.js';
import { type Env, envVars, readEnv } from './env-vars.js';
import { platformUrl, setButDisabled } from './platform-credentials.js';
import type { ConfigFile } from './schema.js';
import { Secret } from './secret.js';

/** The Developer Portal's Public Key: Ed25519, 32 bytes as 64 hex characters. */
const PUBLIC_KEY_HEX = /^[0-9a-fA-F]{64}$/;
const APPLICATION_ID = /^\d{15,22}$/;

/** Ports the interactions endpoint must not share (the ops server, Slack's HTTP receiver), when those run. */
export interface OtherPorts {
  readonly http: ConfigFile['http'] | undefined;
  readonly slack: ConfigFile['slack'] | undefined;
}

/**
 * The Discord section plus DISCORD_TOKEN, DISCORD_APPLICATION_ID, DISCORD_PUBLIC_KEY and DISCORD_API_URL.
 * Gateway mode needs the token; http mode needs the token (notices go through REST), the application id
 * (the interaction webhooks live under it) and the public key (every interaction's signature is checked).
 */
export function resolveDiscord(
  env: Env,
  section: ConfigFile['discord'] | undefined,
  others: OtherPorts,
  problems: ConfigProblem[],
  warnings: ConfigProblem[],
): DiscordConfig | undefined {
  const token = readEnv(env, envVars.discordToken);
  const idFromEnv = readEnv(env, envVars.discordApplicationId);
  if (section === undefined) return undefined;
  if (!section.enabled) {
    if (token !== undefined) warnings.push(setButDisabled(envVars.discordToken, 'discord.enabled'));
    return { enabled: false };
  }
  const before = problems.length;
  if (token === undefined) {
    problems.push({
      code: 'env_missing',
      path: 'discord.enabled',
      message: `Discord is enabled but ${envVars.discordToken} is not set`,
      fix: `export ${envVars.discordToken} with the bot token (Discord Developer Portal → your application → Bot → Reset Token), or set discord.enabled to false`,
    });
  } else if (/\s/.test(token) || /^Bot\b/i.test(token)) {
    problems.push({
      code: 'env_invalid',
      path: `env ${envVars.discordToken}`,
      message: 'contains whitespace or a "Bot " prefix',
      fix: 'set only the token itself, without "Bot " and without spaces or line breaks',
    });
  }
  const applicationId = idFromEnv ?? section.applicationId;
  if (applicationId !== undefined && !APPLICATION_ID.test(applicationId)) {
    problems.push({
      code: idFromEnv !== undefined ? 'env_invalid' : 'invalid_value',
      path: idFromEnv !== undefined ? `env ${envVars.discordApplicationId}` : 'discord.applicationId',
      message: 'is not a Discord application id (a number of 15 to 22 digits)',
      fix: 'copy the Application ID from the Discord Developer Portal → General Information',
    });
  }
  const api = platformUrl(
    env,
    envVars.discordApiUrl,
    section.apiUrl,
    'discord.apiUrl',
    'the bot token',
    problems,
  );
  const http = section.mode === 'http' ? resolveHttpMode(env, section, applicationId, others, problems) : {};
  if (problems.length > before || !api.ok || token === undefined) return undefined;
  const secret = new Secret(envVars.discordToken, token);
  if (section.mode === 'gateway') {
    return { enabled: true, mode: 'gateway', token: secret, applicationId, apiUrl: api.url };
  }
  if (http.publicKey === undefined || applicationId === undefined) return undefined;
  return {
    enabled: true,
    mode: 'http',
    token: secret,
    applicationId,
    publicKey: http.publicKey,
    port: section.port,
    apiUrl: api.url,
  };
}

/** http mode's own needs: the public key, the application id, and a port of its own. */
function resolveHttpMode(
  env: Env,
  section: ConfigFile['discord'],
  applicationId: string | undefined,
  others: OtherPorts,
  problems: ConfigProblem[],
): { publicKey?: string } {
  const keyFromEnv = readEnv(env, envVars.discordPublicKey);
  const publicKey = (keyFromEnv ?? section.publicKey)?.trim();
  const keyPath = keyFromEnv !== undefined ? `env ${envVars.discordPublicKey}` : 'discord.publicKey';
  let ok = true;
  if (publicKey === undefined) {
    ok = false;
    problems.push({
      code: 'env_missing',
      path: 'discord.mode',
      message: `Discord http mode needs the application's public key, and neither discord.publicKey nor ${envVars.discordPublicKey} is set`,
      fix: `copy "Public Key" from the Discord Developer Portal → your application → General Information into discord.publicKey or ${envVars.discordPublicKey} (it is not a secret), or set discord.mode to "gateway"`,
    });
  } else if (!PUBLIC_KEY_HEX.test(publicKey)) {
    ok = false;
    problems.push({
      code: keyFromEnv !== undefined ? 'env_invalid' : 'invalid_value',
      path: keyPath,
      message: `is not a Discord public key: it must be 64 hex characters (0-9, a-f), got ${publicKey.length} characters${/[^0-9a-fA-F]/.test(publicKey) ? ' with non-hex ones' : ''}`,
      fix: 'copy "Public Key" (not the Application ID, not the bot token) from the Developer Portal → General Information',
    });
  }
  if (applicationId === undefined) {
    problems.push({
      code: 'env_missing',
      path: 'discord.mode',
      message: `Discord http mode needs the application id, and neither discord.applicationId nor ${envVars.discordApplicationId} is set`,
      fix: `copy the Application ID from the Developer Portal → General Information into discord.applicationId or ${envVars.discordApplicationId}: deferred answers are completed through the webhook under it`,
    });
  }
  const clash = (what: string, setting: string) =>
    problems.push({
      code: 'port_clash',
      path: 'discord.port',
      message: `the Discord interactions endpoint and ${what} both want port ${section.port}`,
      fix: `give discord.port and ${setting} different values`,
    });
  if (others.http?.enabled && others.http.port === section.port) {
    clash('the health/metrics server', 'http.port (or PORT)');
  }
  const slack = others.slack;
  if (
    slack?.enabled &&
    (slack.mode === 'http' || slack.clientId !== undefined) &&
    slack.port === section.port
  ) {
    clash('the Slack HTTP receiver', 'slack.port');
  }
  return ok && publicKey !== undefined ? { publicKey } : {};
}
