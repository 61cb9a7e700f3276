import { type APIChannel, ChannelType, DiscordAPIError, type REST, Routes } from 'discord.js';
import type { ChannelPoster, ChannelRef, NeutralMessage } from '../../../core/index.js';
import { ChannelUnavailableError } from '../../../core/index.js';
import { unavailableReasons } from '../channel-unavailable-reasons.js';
import { nonceFromKey } from '../discord-nonce.js';
import { restMessage } from './rest-message.js';

/** Guild channel types a bot can post messages into (text, voice and stage chat, announcements, threads). */
const sendableTypes: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildVoice,
  ChannelType.GuildAnnouncement,
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
  ChannelType.GuildStageVoice,
]);

/** Channels whose server is remembered; a channel never moves to another server, so entries never go stale. */
const maxRememberedChannels = 10_000;

/**
 * Posts notices through Discord's REST API alone, for HTTP interactions mode where
 * no gateway connection (and so no channel cache) exists.
 *
 * Same rules as the gateway poster: never across servers (the channel's server
 * must be the subscription's), `allowed_mentions` empty, and a nonce derived from
 * the delivery's idempotency key with `enforce_nonce`, so a retried delivery
 * returns the message already posted instead of a duplicate.
 *
 * Cost: one `GET /channels/{id}` the first time a channel is posted to in this
 * process (its server and type are then remembered), one `POST
 * /channels/{id}/messages` per notice.
 */
export function createRestPoster(rest: REST): ChannelPoster {
  const channels = new Map<string, { readonly guildId: string | undefined; readonly type: number }>();

  async function channelFacts(channelId: string): Promise<{ guildId: string | undefined; type: number }> {
    const known = channels.get(channelId);
    if (known) return known;
    const channel = (await rest.get(Routes.channel(channelId))) as APIChannel;
    const facts = { guildId: 'guild_id' in channel ? channel.guild_id : undefined, type: channel.type };
    if (channels.size >= maxRememberedChannels) channels.delete(channels.keys().next().value as string);
    channels.set(channelId, facts);
    return facts;
  }

  return {
    platform: 'discord',
    async post(ref: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<void> {
      if (ref.platform !== 'discord') {
        throw new Error(`The Discord poster got a ${ref.platform} channel: check the notice routing`);
      }
      try {
        const channel = await channelFacts(ref.channelId);
        // Not in this server as far as the subscription knows: never post across servers.
        if (channel.guildId !== ref.workspaceId) throw new ChannelUnavailableError(ref, 'gone');
        if (!sendableTypes.has(channel.type)) throw new ChannelUnavailableError(ref, 'no-access');
        const { body, files } = restMessage(message);
        await rest.post(Routes.channelMessages(ref.channelId), {
          body: { ...body, nonce: nonceFromKey(idempotencyKey), enforce_nonce: true },
          files,
        });
      } catch (error) {
        const reason = error instanceof DiscordAPIError ? unavailableReasons.get(error.code) : undefined;
        if (reason) throw new ChannelUnavailableError(ref, reason, { cause: error });
        throw error;
      }
    },
  };
}
