import { defaultInteractionsPath } from './create-discord-http-adapter.js';

/**
 * The Interactions Endpoint URL to enter in the Developer Portal for http mode:
 * the bot's public https base plus the endpoint path. Discord only calls https
 * URLs, and it checks the endpoint when the URL is saved (a PING, and a request
 * with a bad signature that must get 401), so the bot must be running then.
 */
export function interactionsEndpointUrl(publicBase: string, path: string = defaultInteractionsPath): string {
  let url: URL;
  try {
    url = new URL(publicBase);
  } catch {
    throw new Error(
      `--public-url needs an absolute https URL such as https://bot.example.com, got "${publicBase}"`,
    );
  }
  if (url.protocol !== 'https:') {
    throw new Error(
      `Discord only calls https endpoints: use https://… for --public-url (got ${url.protocol})`,
    );
  }
  return new URL(path.replace(/^\//, ''), url.href.endsWith('/') ? url.href : `${url.href}/`).toString();
}
