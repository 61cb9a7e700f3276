import { webApi } from '@slack/bolt';
import type { ChannelAccess, ChannelAccessResult } from '../../core/index.js';
import type { Logger } from '../../domain/logger.js';

/**
 * Whether the bot can post in a Slack channel, from `conversations.info` (one
 * Tier 3 call per /fundbot subscribe; scopes channels:read and groups:read):
 * - archived → 'archived';
 * - `is_member: false` → 'not-member' (fundbot has no chat:write.public: it posts
 *   only where it was invited);
 * - a private channel the bot is not in is invisible to it: Slack answers
 *   `channel_not_found` (or `not_in_channel`) → 'not-member', since the command
 *   came from that very channel it exists;
 * - a DM with the bot → ok;
 * - anything else (missing scope, network, rate limit) → 'unknown', logged.
 */
export function createSlackChannelAccess(client: webApi.WebClient, logger: Logger): ChannelAccess {
  return {
    async canPost(channel): Promise<ChannelAccessResult> {
      if (channel.platform !== 'slack') return { ok: false, reason: 'unknown' };
      try {
        const info = await client.conversations.info({ channel: channel.channelId });
        const conversation = info.channel;
        if (!conversation) return { ok: false, reason: 'unknown' };
        if (conversation.is_archived) return { ok: false, reason: 'archived' };
        if (conversation.is_im) return { ok: true };
        return conversation.is_member ? { ok: true } : { ok: false, reason: 'not-member' };
      } catch (error) {
        const code = slackErrorCode(error);
        if (code === 'channel_not_found' || code === 'not_in_channel')
          return { ok: false, reason: 'not-member' };
        logger.warn(
          {
            code: code ?? (error instanceof Error ? error.name : 'unknown'),
            ...(code === 'missing_scope'
              ? {
                  fix: 'add the bot scopes channels:read and groups:read (npm run commands:slack) and reinstall',
                }
              : {}),
          },
          'Slack conversations.info failed: cannot tell whether fundbot may post in the channel',
        );
        return { ok: false, reason: 'unknown' };
      }
    },
  };
}

/** The `error` of a Slack platform error (`{ ok: false, error }`), else undefined. */
function slackErrorCode(error: unknown): string | undefined {
  if (
    error &&
    typeof error === 'object' &&
    'code' in error &&
    error.code === webApi.ErrorCode.PlatformError
  ) {
    const data = (error as webApi.WebAPIPlatformError).data;
    return typeof data?.error === 'string' ? data.error : undefined;
  }
  return undefined;
}
