import { type Client, DiscordAPIError, PermissionFlagsBits } from 'discord.js';
import type { ChannelAccess, ChannelAccessResult, ChannelPermission } from '../../core/index.js';

/** What a notice needs: see the channel, post, embed (every notice is an embed), attach (the digest chart). */
const needed: readonly (readonly [ChannelPermission, bigint])[] = [
  ['view-channel', PermissionFlagsBits.ViewChannel],
  ['send-messages', PermissionFlagsBits.SendMessages],
  ['embed-links', PermissionFlagsBits.EmbedLinks],
  ['attach-files', PermissionFlagsBits.AttachFiles],
];
/** In a thread, Send Messages in Threads stands in for Send Messages. */
const neededInThread: readonly (readonly [ChannelPermission, bigint])[] = needed.map(([name, bit]) =>
  name === 'send-messages'
    ? ['send-messages-in-threads', PermissionFlagsBits.SendMessagesInThreads]
    : [name, bit],
);

/**
 * Whether the bot can post notices in a Discord channel: the bot member's computed
 * permissions there (roles and the channel's overwrites, Administrator included),
 * from discord.js's gateway cache, so usually no request at all (a channel or the
 * bot's member not cached costs one GET). An archived or locked thread → 'archived';
 * a missing permission → 'no-permission' naming the ones to grant; a channel the
 * bot cannot read at all (Missing Access) → 'no-permission' for View Channel.
 */
export function createDiscordChannelAccess(client: Client): ChannelAccess {
  return {
    async canPost(ref): Promise<ChannelAccessResult> {
      if (ref.platform !== 'discord') return { ok: false, reason: 'unknown' };
      let channel: Awaited<ReturnType<Client['channels']['fetch']>>;
      try {
        channel = await client.channels.fetch(ref.channelId);
      } catch (error) {
        if (error instanceof DiscordAPIError && (error.code === 50001 || error.code === 50013)) {
          return { ok: false, reason: 'no-permission', missing: ['view-channel'] };
        }
        throw error;
      }
      // Never answer for a channel of another server than the one the command came from.
      if (!channel || channel.isDMBased() || channel.guildId !== ref.workspaceId) {
        return { ok: false, reason: 'unknown' };
      }
      const thread = channel.isThread();
      if (channel.isThread() && (channel.archived || channel.locked)) {
        return { ok: false, reason: 'archived' };
      }
      const me = channel.guild.members.me ?? (await channel.guild.members.fetchMe());
      const permissions = channel.permissionsFor(me);
      const missing = (thread ? neededInThread : needed)
        .filter(([, bit]) => !permissions.has(bit))
        .map(([name]) => name);
      return missing.length === 0 ? { ok: true } : { ok: false, reason: 'no-permission', missing };
    },
  };
}
