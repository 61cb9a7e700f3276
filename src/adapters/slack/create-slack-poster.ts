import { webApi } from '@slack/bolt';
import type { ChannelRef, NeutralMessage } from '../../core/index.js';
import {
  type ChannelPoster,
  ChannelUnavailableError,
  DeliveryNotPostedError,
  type PostReceipt,
  type ThreadTarget,
} from '../../delivery/index.js';
import { limits } from '../../domain/text-limits.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { renderBlocks, renderRichText, slackLimits } from './render-blocks.js';
import { createSlackDeliveryLookup, noticeEventType } from './slack-delivery-lookup.js';
import { createSlackRateGate, type SlackRateGate } from './slack-rate-gate.js';
import { clip, neutralizePlainText } from './slack-text.js';

export { noticeEventType };

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

/** How long a post is given before it is called in doubt: Slack can take several seconds. */
export const defaultPostTimeoutMs = 30_000;

export interface SlackPosterOptions {
  /**
   * The client that posts: NO retries of its own (a retried post after a timeout or
   * a 5xx is exactly the duplicate this poster prevents), rate limits rejected at
   * once, timeout `postTimeoutMs`. See {@link createSlackPostingClient}.
   */
  readonly client: webApi.WebClient;
  /** The timeout the client was given: a post may land until then (plus a margin). */
  readonly postTimeoutMs?: number;
  readonly clock?: Clock;
  /** Minimum time between two history looks (default 60 s: Slack's limit for non-Marketplace apps). */
  readonly historyIntervalMs?: number;
}

/** The Web API client for posting notices: see {@link SlackPosterOptions.client}. */
export function createSlackPostingClient(
  token: string,
  options: { slackApiUrl?: string; postTimeoutMs?: number; logger?: webApi.WebClientOptions['logger'] },
): webApi.WebClient {
  return new webApi.WebClient(token, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.postTimeoutMs ?? defaultPostTimeoutMs,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * Posts notices into Slack channels for the outbox, exactly once per (event, channel)
 * with the notice router's ledger.
 *
 * Slack has no idempotency key for posting. Every notice carries `metadata: {
 * event_type: 'fundbot_notice', event_payload: { event_id } }`, and a delivery in
 * doubt (timeout, dropped connection, 5xx, crash) is resolved by `findPosted`: a
 * look at the channel's history (see createSlackDeliveryLookup), never by posting
 * again blind. A post is given `postTimeoutMs` (30 s) to finish; the router waits
 * that long plus a margin (`inDoubtSettleMs`) before it looks or retries.
 *
 * Errors: a channel that cannot take messages → {@link ChannelUnavailableError};
 * an answer proving nothing was posted (Slack `ok: false`, HTTP 4xx, 429, a
 * connection never opened) → {@link DeliveryNotPostedError}; anything after the
 * request may have reached Slack is rethrown as is: in doubt.
 *
 * Rate limits: a 429's Retry-After is obeyed for every later request of this poster
 * (posts and looks): nothing is sent to Slack before it ends.
 *
 * Messages with a PNG attachment (the digest chart) go through files.uploadV2 (one
 * message holding the chart with the whole message as its mrkdwn `initial_comment`).
 * File shares cannot carry metadata, so such a post in doubt cannot be found by a
 * look; the digest does not go through the notice router.
 */
export function createSlackPoster(
  options: SlackPosterOptions,
): ChannelPoster & { readonly gate: SlackRateGate } {
  const { client } = options;
  const clock = options.clock ?? systemClock;
  const postTimeoutMs = options.postTimeoutMs ?? defaultPostTimeoutMs;
  // Slack may still be processing a request the client gave up on: a margin past the timeout.
  const settleMs = postTimeoutMs + 5_000;
  const gate = createSlackRateGate(clock);
  const lookup = createSlackDeliveryLookup({
    client,
    clock,
    gate,
    settleMs,
    ...(options.historyIntervalMs !== undefined ? { historyIntervalMs: options.historyIntervalMs } : {}),
  });

  return {
    platform: 'slack',
    inDoubtSettleMs: settleMs,
    gate,
    async post(
      channel: ChannelRef,
      message: NeutralMessage,
      idempotencyKey: string,
      thread?: ThreadTarget,
    ): Promise<PostReceipt | undefined> {
      if (channel.platform !== 'slack') {
        throw new Error(
          `The Slack poster got a ${channel.platform} channel: the notice router must pick the poster by platform`,
        );
      }
      gate.check('the notice');
      try {
        if (message.image?.kind === 'attachment') {
          await client.files.uploadV2({
            channel_id: channel.channelId,
            file: Buffer.from(message.image.data),
            filename: safeFilename(message.image.filename),
            title: clip(neutralizePlainText(message.title ?? message.image.alt), limits.messageTitle),
            alt_text: clip(neutralizePlainText(message.image.alt), slackLimits.fileAltText),
            // The message beside the file as rich text: literal user text, no mrkdwn (see slack-text.ts).
            blocks: [renderRichText(message)],
          });
          return undefined;
        }
        const { blocks, text } = renderBlocks(message);
        const answer = await client.chat.postMessage({
          channel: channel.channelId,
          // A reply in the daily thread: its parent's ts. Never broadcast to the channel.
          ...(thread ? { thread_ts: thread.parentMessageId } : {}),
          blocks,
          text,
          unfurl_links: false,
          unfurl_media: false,
          metadata: { event_type: noticeEventType, event_payload: { event_id: idempotencyKey } },
        });
        return answer.ts ? { messageId: answer.ts } : undefined;
      } catch (error) {
        throw classifySlackError(error, channel, gate);
      }
    },
    async edit(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
      gate.check('the correction');
      // The same escaped rendering as a post: hostile text in an edit stays inert.
      const { blocks, text } = renderBlocks(message);
      try {
        await client.chat.update({ channel: channel.channelId, ts: messageId, blocks, text });
      } catch (error) {
        throw classifySlackError(error, channel, gate);
      }
    },
    async findPosted(
      channel: ChannelRef,
      idempotencyKey: string,
      attemptStartedAt: number,
      _message?: NeutralMessage,
      thread?: ThreadTarget,
    ) {
      try {
        return await lookup.find(
          channel.channelId,
          idempotencyKey,
          attemptStartedAt,
          thread?.parentMessageId,
        );
      } catch (error) {
        const classified = classifySlackError(error, channel, gate);
        // A channel that is gone cannot show the message, and cannot take it either.
        throw classified;
      }
    },
  };
}

/** Maps a Web API failure to what it proves about the post (see createSlackPoster). */
function classifySlackError(error: unknown, channel: ChannelRef, gate: SlackRateGate): unknown {
  if (!(error && typeof error === 'object' && 'code' in error)) return error;
  switch (error.code) {
    case webApi.ErrorCode.RateLimitedError: {
      const retryAfter = (error as webApi.WebAPIRateLimitedError).retryAfter;
      gate.pause(retryAfter);
      return new DeliveryNotPostedError(`Slack rate limit: retry after ${retryAfter} s`, retryAfter * 1000, {
        cause: error,
      });
    }
    case webApi.ErrorCode.PlatformError: {
      const code = platformErrorCode(error);
      const reason = code ? unavailableChannelErrors[code] : undefined;
      if (reason) return new ChannelUnavailableError(channel, reason, { cause: error });
      return new DeliveryNotPostedError(`Slack refused the call: ${code ?? 'unknown error'}`, undefined, {
        cause: error,
      });
    }
    case webApi.ErrorCode.HTTPError: {
      const status = (error as webApi.WebAPIHTTPError).statusCode;
      // A 5xx can come after Slack processed the post: in doubt. A 4xx refused it.
      if (status >= 400 && status < 500) {
        return new DeliveryNotPostedError(`Slack answered HTTP ${status}`, undefined, { cause: error });
      }
      return error;
    }
    case webApi.ErrorCode.RequestError:
      // Never connected: nothing was sent. A timeout or reset after sending stays in doubt.
      return neverConnected(error)
        ? new DeliveryNotPostedError('Slack could not be reached', undefined, { cause: error })
        : error;
    default:
      return error;
  }
}

/** True when the connection was refused or the name did not resolve: the request never left. */
function neverConnected(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return true;
    current =
      (current as { original?: unknown; cause?: unknown }).original ?? (current as { cause?: unknown }).cause;
  }
  return false;
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
