import type { Client } from 'discord.js';
import { type ChannelPoster, ChannelUnavailableError } from '../../delivery/index.js';
import { discordPost, discordRestDelivery } from './discord-rest-delivery.js';
import { noMentions } from './http-interactions/rest-message.js';
import { renderEmbed } from './render-embed.js';

export interface DiscordPosterOptions {
  readonly client: Client;
  /** The REST timeout: a post may land until then; the router waits that long plus a margin. */
  readonly restTimeoutMs: number;
  /**
   * How long Discord dedupes a repeat with the same nonce (`enforce_nonce`). Discord
   * says "a few minutes" without a number: 2 minutes is inside it. Default 120 s.
   */
  readonly nonceWindowMs?: number;
}

/**
 * Posts notices into Discord channels: an embed with a nonce derived from the
 * delivery's idempotency key and `enforce_nonce`, so a repeat within Discord's
 * window returns the message already created instead of a second one.
 *
 * A delivery in doubt (timeout, reset, 5xx, crash) is resolved by `findPosted`:
 * inside the nonce window, posting again with the same nonce is the check (Discord
 * dedupes it); after the window, the bot's messages since the attempt began are
 * read (GET /channels/{id}/messages?after=<snowflake of the attempt start>, up to
 * 3 pages of 100) and the notice is recognised by its nonce or, as GET does not
 * return nonces, by its embed (title, description and footer).
 *
 * Rate limits: discord.js's REST queue obeys Discord's waits (the 429's
 * Retry-After, per route and global, and the bucket headers): no request on that
 * route (any route for a global limit) before the wait ends. A 429 never posts.
 */
export function createDiscordPoster(options: DiscordPosterOptions): ChannelPoster {
  const { client } = options;

  return {
    platform: 'discord',
    post: discordPost(async (target, ref, message, nonce, thread) => {
      const channel = await client.channels.fetch(target);
      // Not in this server as far as the subscription knows: never post across servers.
      if (!channel || ('guildId' in channel && channel.guildId !== ref.workspaceId)) {
        throw new ChannelUnavailableError(ref, 'gone');
      }
      // A reply goes only into a thread of the subscribed channel.
      if (thread && !(channel.isThread() && channel.parentId === ref.channelId)) {
        throw new ChannelUnavailableError(ref, 'gone');
      }
      if (!channel.isSendable() || channel.isDMBased())
        throw new ChannelUnavailableError(ref, 'no-permission');
      // `private` has no meaning in a channel post: notices are for everyone in it.
      const sent = await channel.send({
        ...renderEmbed(message),
        allowedMentions: noMentions,
        nonce,
        enforceNonce: true,
      });
      return sent.id;
    }),
    ...discordRestDelivery({
      rest: client.rest,
      restTimeoutMs: options.restTimeoutMs,
      botUserId: async () => client.user?.id,
      ...(options.nonceWindowMs !== undefined ? { nonceWindowMs: options.nonceWindowMs } : {}),
    }),
  };
}
