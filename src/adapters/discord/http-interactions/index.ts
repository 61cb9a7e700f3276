/** Discord over HTTP interactions: a signed endpoint instead of the gateway, notices through REST. */
export {
  createDiscordHttpAdapter,
  type DiscordHttpAdapter,
  type DiscordHttpAdapterOptions,
  defaultInteractionsPath,
} from './create-discord-http-adapter.js';
export {
  createDiscordRestPosting,
  type DiscordRestPosting,
  type DiscordRestPostingOptions,
} from './create-discord-rest-posting.js';
export { interactionsEndpointUrl } from './interactions-endpoint-url.js';
export { checkDiscordSignature, discordPublicKey } from './verify-signature.js';
