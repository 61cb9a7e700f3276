import { type APIChannel, type APIMessage, ChannelType, type REST, Routes } from 'discord.js';
import type { ChannelPoster } from '../../../delivery/index.js';
import { ChannelUnavailableError } from '../../../delivery/index.js';
import { discordPost, discordRestDelivery } from '../discord-rest-delivery.js';
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

interface ChannelFacts {
  readonly guildId: string | undefined;
  readonly type: number;
  /** A thread's parent channel. */
  readonly parentId: string | undefined;
}

export interface RestPosterOptions {
  readonly rest: REST;
  /** The REST client's timeout: a post may land until then; the router waits that long plus a margin. */
  readonly restTimeoutMs: number;
}

/**
 * Posts notices through Discord's REST API alone, for HTTP interactions mode where
 * no gateway connection (and so no channel cache) exists, and for replicas that do
 * not hold the gateway.
 *
 * Same rules and abilities as the gateway poster: never across servers (the channel's
 * server must be the subscription's), `allowed_mentions` empty, a nonce derived from
 * the delivery's idempotency key with `enforce_nonce` (a retried delivery returns the
 * message already posted instead of a duplicate), the message id as the receipt, so
 * corrections edit it and the daily thread opens on it, and doubt resolved by looking
 * (discord-rest-delivery.ts).
 *
 * Cost: one `GET /channels/{id}` the first time a channel (or thread) is posted to in
 * this process (its server, type and parent are then remembered), one `POST
 * /channels/{id}/messages` per notice; one `GET /users/@me` at the first look.
 */
export function createRestPoster(options: RestPosterOptions): ChannelPoster {
  const { rest } = options;
  const channels = new Map<string, ChannelFacts>();
  let me: Promise<string | undefined> | undefined;

  async function channelFacts(channelId: string): Promise<ChannelFacts> {
    const known = channels.get(channelId);
    if (known) return known;
    const channel = (await rest.get(Routes.channel(channelId))) as APIChannel;
    const facts: ChannelFacts = {
      guildId: 'guild_id' in channel ? channel.guild_id : undefined,
      type: channel.type,
      parentId: 'parent_id' in channel ? (channel.parent_id ?? undefined) : undefined,
    };
    if (channels.size >= maxRememberedChannels) channels.delete(channels.keys().next().value as string);
    channels.set(channelId, facts);
    return facts;
  }

  return {
    platform: 'discord',
    post: discordPost(async (target, ref, message, nonce, thread) => {
      const channel = await channelFacts(target);
      // Not in this server as far as the subscription knows: never post across servers.
      if (channel.guildId !== ref.workspaceId) throw new ChannelUnavailableError(ref, 'gone');
      // A reply goes only into a thread of the subscribed channel.
      if (thread && channel.parentId !== ref.channelId) throw new ChannelUnavailableError(ref, 'gone');
      if (!sendableTypes.has(channel.type)) throw new ChannelUnavailableError(ref, 'no-permission');
      const { body, files } = restMessage(message);
      const sent = (await rest.post(Routes.channelMessages(target), {
        body: { ...body, nonce, enforce_nonce: true },
        files,
      })) as APIMessage;
      return sent.id;
    }),
    ...discordRestDelivery({
      rest,
      restTimeoutMs: options.restTimeoutMs,
      botUserId: () => {
        // The bot's own id, asked once: only its messages may match a look.
        me ??= (rest.get(Routes.user('@me')) as Promise<{ id: string }>).then(
          (user) => user.id,
          (error: unknown) => {
            me = undefined;
            throw error;
          },
        );
        return me;
      },
    }),
  };
}
