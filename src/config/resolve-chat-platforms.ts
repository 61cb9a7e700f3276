import type { ConfigProblem } from './config-problem.js';
import type { DiscordConfig, SlackConfig } from './config-types.js';
import { type Env, envVars, readEnv } from './env-vars.js';
import { describeWrappedKey } from './resolve-projects.js';
import type { ConfigFile } from './schema.js';
import { Secret } from './secret.js';
import { baseOf, checkServiceUrl } from './service-url.js';

/** A platform's base URL from its variable or the file; undefined = the platform's own (problems added when invalid). */
function platformUrl(
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

/* Resolvers of the chat platform sections: the file's switches plus the tokens from the environment. */

export function resolveDiscord(
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
  const api = platformUrl(
    env,
    envVars.discordApiUrl,
    section.apiUrl,
    'discord.apiUrl',
    'the bot token',
    problems,
  );
  if (!ok || !api.ok || token === undefined) return undefined;
  return { enabled: true, token: new Secret(envVars.discordToken, token), applicationId, apiUrl: api.url };
}

export function resolveSlack(
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
  const apiUrl = platformUrl(
    env,
    envVars.slackApiUrl,
    section.apiUrl,
    'slack.apiUrl',
    'the Slack tokens',
    problems,
  ).url;
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
    return { enabled: true, mode: 'socket', apiUrl, botToken: bot, appToken: app, admins: section.admins };
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
    apiUrl,
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

function setButDisabled(variable: string, field: string): ConfigProblem {
  return {
    code: 'invalid_value',
    path: field,
    message: `${variable} is set but ${field} is false, so that platform stays off`,
    fix: `set ${field} to true to use it, or unset ${variable}`,
  };
}
