import { webApi } from '@slack/bolt';
import type { ChannelPoster, ChannelRef, NeutralMessage } from '../../core/index.js';
import { ChannelUnavailableError } from '../../core/index.js';
import { clip, neutralizePlainText } from './escape-mrkdwn.js';
import { renderBlocks, renderMrkdwnText } from './render-blocks.js';

/**
 * Slack error codes after which a retry in this channel cannot succeed, mapped to the
 * core's reasons: 'gone' (the channel is deleted or archived) or 'no-access' (the bot is
 * not in the channel, or a workspace rule forbids it to post there).
 *
 * Token-wide errors (invalid_auth, token_revoked, account_inactive) are deliberately NOT
 * here: they concern every channel at once, and the operator fixing the token should
 * not find that every notice meanwhile was dropped for good. They are retried, and the
 * notice router gives a channel up only after its retry bound.
 */
export const unavailableChannelErrors: Readonly<Record<string, 'gone' | 'no-access'>> = {
  channel_not_found: 'gone',
  is_archived: 'gone',
  not_in_channel: 'no-access',
  restricted_action: 'no-access',
};

/** `event_type` of the metadata every notice carries. */
export const noticeEventType = 'fundbot_notice';

/**
 * Posts notices into Slack channels for the outbox.
 *
 * Slack has no idempotency key for posting, so a retry after a lost response can
 * post twice. Every notice carries `metadata: { event_type: 'fundbot_notice',
 * event_payload: { event_id } }`: after a crash, conversations.history with
 * `include_all_metadata` shows which events already reached a channel (best effort,
 * not atomic; that method is heavily rate limited for non-Marketplace apps).
 *
 * Messages with a PNG attachment (the digest chart) go through files.uploadV2
 * (files.getUploadURLExternal, the upload, files.completeUploadExternal): one message
 * holding the chart with the whole message as its mrkdwn `initial_comment`. File
 * shares cannot carry metadata. A failure before the completion call posts nothing,
 * so the outbox's retry does not duplicate it.
 *
 * Errors: a channel that cannot take messages → {@link ChannelUnavailableError}
 * (do not retry); anything else (5xx after the client's short retries, rate limits,
 * network) is rethrown for the outbox to retry later.
 */
export function createSlackPoster(client: webApi.WebClient): ChannelPoster {
  return {
    platform: 'slack',
    async post(channel: ChannelRef, message: NeutralMessage, idempotencyKey: string): Promise<void> {
      if (channel.platform !== 'slack') {
        throw new Error(
          `The Slack poster got a ${channel.platform} channel: the notice router must pick the poster by platform`,
        );
      }
      try {
        if (message.image?.kind === 'attachment') {
          await client.files.uploadV2({
            channel_id: channel.channelId,
            file: Buffer.from(message.image.data),
            filename: safeFilename(message.image.filename),
            title: clip(neutralizePlainText(message.title ?? message.image.alt), 250),
            alt_text: clip(neutralizePlainText(message.image.alt), 1000),
            initial_comment: renderMrkdwnText(message),
          });
          return;
        }
        const { blocks, text } = renderBlocks(message);
        await client.chat.postMessage({
          channel: channel.channelId,
          blocks,
          text,
          unfurl_links: false,
          unfurl_media: false,
          metadata: { event_type: noticeEventType, event_payload: { event_id: idempotencyKey } },
        });
      } catch (error) {
        const code = platformErrorCode(error);
        const reason = code ? unavailableChannelErrors[code] : undefined;
        if (reason) throw new ChannelUnavailableError(channel, reason, { cause: error });
        throw error;
      }
    },
  };
}

function platformErrorCode(error: unknown): string | undefined {
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

/** A plain file name: Slack shows it, so no path, no control characters. */
function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^\w.-]+/g, '_').slice(0, 100);
  return cleaned || 'chart.png';
}
