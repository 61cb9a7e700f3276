import { defaultInteractionsPath } from './create-discord-http-adapter.js';

/**
 * The Interactions Endpoint URL to enter in the Developer Portal for http mode: the bot's
 * public base plus the endpoint path, keeping the base's own path. The base is checked
 * where it is configured (`checkPublicUrl` in src/config, for the bot and the command
 * registration alike). Discord calls only https URLs, and it checks the endpoint when the
 * URL is saved (a PING, and a request with a bad signature that must get 401), so the bot
 * must be running then.
 */
export function interactionsEndpointUrl(publicBase: string, path: string = defaultInteractionsPath): string {
  const base = publicBase.endsWith('/') ? publicBase : `${publicBase}/`;
  return new URL(path.replace(/^\//, ''), base).toString();
}
