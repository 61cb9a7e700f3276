import type { FundbotConfig } from '../config/index.js';
import { type SecretRedactor, secretRedactor } from '../lib/secret-redactor.js';

/**
 * Registers every chat secret of `config` by value with the one redactor, before
 * anything logs: the Discord token, the Slack bot and app tokens and the signing
 * secret (which has no recognisable shape, so only its value can hide it). From
 * then on the logger, error summaries and chat output hide each of them whole,
 * without its prefix, and any 16-character piece of it. The API keys are
 * registered by the API client with the first request it sends with them (a key
 * file replaced at run time included). Returns the values, for the logger.
 * Cost: one Set of 16-character windows per secret (about 1.5 KB each).
 */
export function registerConfiguredSecrets(
  config: Pick<FundbotConfig, 'discord' | 'slack'>,
  redactor: SecretRedactor = secretRedactor,
): string[] {
  const secrets = [
    ...(config.discord.enabled ? [config.discord.token.reveal()] : []),
    ...(config.slack.enabled ? [config.slack.botToken.reveal()] : []),
    ...(config.slack.enabled && config.slack.mode === 'socket' ? [config.slack.appToken.reveal()] : []),
    ...(config.slack.enabled && config.slack.mode === 'http' ? [config.slack.signingSecret.reveal()] : []),
  ];
  redactor.register(...secrets);
  return secrets;
}
