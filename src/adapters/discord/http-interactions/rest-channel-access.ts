import { DiscordAPIError, type REST, Routes } from 'discord.js';
import type { ChannelAccess, ChannelAccessResult } from '../../../core/index.js';

/** Discord's "Missing Access" and "Missing Permissions" error codes. */
const MISSING_ACCESS = 50001;
const MISSING_PERMISSIONS = 50013;

/**
 * /subscribe's check in HTTP interactions mode, where no gateway cache holds the
 * bot's permissions: one `GET /channels/{id}`. It proves the bot can see the
 * channel; a permission to post that is missing despite that is reported by the
 * first notice (the poster's "channel unavailable"), which skips the channel.
 */
export function createRestChannelAccess(rest: REST): ChannelAccess {
  return {
    async canPost(channel): Promise<ChannelAccessResult> {
      if (channel.platform !== 'discord') return { ok: false, reason: 'unknown' };
      try {
        const found = (await rest.get(Routes.channel(channel.channelId))) as {
          thread_metadata?: { archived?: boolean; locked?: boolean };
        };
        if (found.thread_metadata?.archived || found.thread_metadata?.locked) {
          return { ok: false, reason: 'archived' };
        }
        return { ok: true };
      } catch (error) {
        if (error instanceof DiscordAPIError) {
          if (error.code === MISSING_ACCESS)
            return { ok: false, reason: 'no-permission', missing: ['view-channel'] };
          if (error.code === MISSING_PERMISSIONS) return { ok: false, reason: 'no-permission' };
        }
        throw error;
      }
    },
  };
}
