import { type Client, Routes } from 'discord.js';
import { type ChannelPoster, ChannelUnavailableError } from '../../delivery/index.js';
import { closeDiscordRest, createDiscordPostingRest } from './discord-rest.js';
import { discordPost, discordRestDelivery } from './discord-rest-delivery.js';
import { restMessage } from './http-interactions/rest-message.js';

export interface DiscordPosterOptions {
  readonly client: Client;
  /** The bot token: the poster has a REST client of its own (see below). */
  readonly token: string;
  /** REST base URL without the version (default Discord's). */
  readonly apiUrl?: string | undefined;
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
 * The channel checks use the gateway client's cache; the requests go through a REST
 * client of the poster's own with NO retries: a retry after a timeout is a repeat the
 * pipeline would not know of (it would take the retry's message for the only one while
 * the first request may still be created after the nonce window, a second copy nobody
 * watches). The pipeline repeats itself, with the same nonce, and watches for a late
 * copy (src/delivery/extra-copies.ts).
 *
 * A delivery in doubt (timeout, reset, 5xx, crash) is resolved by `findPosted`:
 * inside the nonce window, posting again with the same nonce is the check (Discord
 * dedupes it); after the window, the bot's messages since the attempt began are
 * read (GET /channels/{id}/messages?after=<snowflake of the attempt start>, up to
 * 3 pages of 100) and the notice is recognised by its nonce or, as GET does not
 * return nonces, by its embed (title, description and footer).
 *
 * Rate limits: the REST client rejects instead of waiting (discordPostingRestOptions): a 429, or a bucket or
 * the global limit known to be spent, is DeliveryNotPostedError with the wait, and the delivery lane holds
 * the channel that long on the injected clock. A 429 never posts.
 */
export function createDiscordPoster(
  options: DiscordPosterOptions,
): ChannelPoster & { close(): Promise<void> } {
  const { client } = options;
  const rest = createDiscordPostingRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: options.restTimeoutMs,
  });

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
      const { body, files } = restMessage(message);
      const sent = (await rest.post(Routes.channelMessages(target), {
        body: { ...body, nonce, enforce_nonce: true },
        files,
      })) as { id: string };
      return sent.id;
    }),
    ...discordRestDelivery({
      rest,
      restTimeoutMs: options.restTimeoutMs,
      botUserId: async () => client.user?.id,
      ...(options.nonceWindowMs !== undefined ? { nonceWindowMs: options.nonceWindowMs } : {}),
    }),
    close: () => closeDiscordRest(rest),
  };
}
