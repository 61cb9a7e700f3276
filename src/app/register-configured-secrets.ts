import type { FundbotConfig } from '../config/index.js';
import { type SecretRedactor, secretRedactor } from '../lib/secret-redactor.js';

/**
 * Registers every chat secret of `config` by value with the one redactor, before
 * anything logs: the Discord token, the Slack bot and app tokens and the signing
 * secret (which has no recognisable shape, so only its value can hide it), and in Slack OAuth mode the
 * client and state secrets and the encryption key. From
 * then on the logger, error summaries and chat output hide each of them whole,
 * without its prefix, and any 16-character piece of it. The API keys are
 * registered by the API client with the first request it sends with them (a key
 * file replaced at run time included). Returns the values, for the logger.
 * Cost: one Set of 16-character windows per secret (about 1.5 KB each).
 */
export function registerConfiguredSecrets(
  config: Pick<FundbotConfig, 'discord' | 'slack'> & { readonly hosted?: FundbotConfig['hosted'] },
  redactor: SecretRedactor = secretRedactor,
): string[] {
  const slack = config.slack;
  const secrets = [
    ...(config.discord.enabled ? [config.discord.token.reveal()] : []),
    ...(slack.enabled && slack.mode !== 'oauth' ? [slack.botToken.reveal()] : []),
    ...(slack.enabled && slack.mode === 'socket' ? [slack.appToken.reveal()] : []),
    ...(slack.enabled && slack.mode !== 'socket' ? [slack.signingSecret.reveal()] : []),
    // OAuth mode: the client and state secrets and the key the installations are encrypted with.
    ...(slack.enabled && slack.mode === 'oauth'
      ? [slack.clientSecret.reveal(), slack.stateSecret.reveal(), slack.encryptionKey.reveal()]
      : []),
    ...(config.hosted?.encryptionKey ? [config.hosted.encryptionKey.reveal()] : []),
  ];
  redactor.register(...secrets);
  return secrets;
}
