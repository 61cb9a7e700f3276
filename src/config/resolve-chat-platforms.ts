import type { ConfigProblem } from './config-problem.js';
import type { SlackConfig } from './config-types.js';
import { type Env, envVars, readEnv } from './env-vars.js';
import { platformUrl, requireToken, setButDisabled } from './platform-credentials.js';
import { resolveSlackOAuth, wantsSlackOAuth } from './resolve-slack-oauth.js';
import type { ConfigFile } from './schema.js';

/* Resolvers of the chat platform sections: the file's switches plus the tokens from the environment. */

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
  if (section.mode === 'http' && http?.enabled && http.port === section.port) {
    problems.push({
      code: 'port_clash',
      path: 'slack.port',
      message: `Slack HTTP mode and the health/metrics server both want port ${section.port}`,
      fix: 'give slack.port and http.port (or PORT) different values',
    });
  }
  if (wantsSlackOAuth(env, section)) return resolveSlackOAuth(env, section, problems, warnings);
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
