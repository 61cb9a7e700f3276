/** The Discord adapter: gateway client, embed renderer, channel poster and command registration payloads. */
export {
  createDiscordAdapter,
  type DiscordAdapter,
  type DiscordAdapterOptions,
} from './create-discord-adapter.js';
export { nonceFromKey } from './discord-nonce.js';
export { clip, escapeDiscordMarkdown, neutralizeDiscordText } from './escape-discord.js';
export {
  createDiscordRestPosting,
  type DiscordRestPosting,
  defaultInteractionsPath,
  interactionsEndpointUrl,
} from './http-interactions/index.js';
export type { DiscordAdapterLogger } from './logger.js';
export { type DiscordRendering, discordLimits, renderEmbed } from './render-embed.js';
