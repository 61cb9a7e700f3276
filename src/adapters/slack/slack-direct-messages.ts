import type { webApi } from '@slack/bolt';
import type { NeutralMessage } from '../../core/index.js';
import { DirectMessageRefusedError, type DirectMessenger } from '../../delivery/index.js';
import { renderBlocks } from './render-blocks.js';

/**
 * Slack's errors that say a member cannot be written to for good (no retry would help): the user is gone, a bot,
 * or the workspace forbids it. `missing_scope` is here too: without `im:write` no watch can ever be delivered, and
 * the log line says which scope to add.
 */
const refusedErrors = new Set([
  'user_not_found',
  'user_disabled',
  'cannot_dm_bot',
  'user_not_visible',
  'not_allowed_token_type',
  'missing_scope',
  'messages_tab_disabled',
  'restricted_action',
]);

/**
 * The reward watch's direct message on Slack: `conversations.open` (users=<id>, scope `im:write`) returns the
 * member's DM channel, then one `chat.postMessage` there, rendered and escaped as a notice (no mention can ping).
 */
export function createSlackDirectMessenger(client: webApi.WebClient): DirectMessenger {
  return {
    platform: 'slack',
    async sendDirect(_workspace, userId: string, message: NeutralMessage) {
      try {
        const opened = await client.conversations.open({ users: userId });
        const channel = opened.channel?.id;
        if (!channel) throw new Error('conversations.open answered without a channel');
        const { blocks, text } = renderBlocks(message);
        await client.chat.postMessage({ channel, blocks, text, unfurl_links: false, unfurl_media: false });
      } catch (error) {
        const code = (error as { data?: { error?: unknown } }).data?.error;
        if (typeof code === 'string' && refusedErrors.has(code)) {
          throw new DirectMessageRefusedError(
            code === 'missing_scope'
              ? 'slack missing_scope: add im:write to the app and reinstall it'
              : `slack ${code}`,
          );
        }
        throw error;
      }
    },
  };
}
