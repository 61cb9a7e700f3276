import { webApi } from '@slack/bolt';
import type { ChannelAccessProblem, ChannelRef, NeutralMessage } from '../../core/index.js';
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
import {
  createSlackLook,
  fileMarker,
  historyPageLimit,
  markedBlocks,
  noticeEventType,
  noticeMetadata,
} from './slack-look.js';
import { createSlackRateGate, rateScope, type SlackRateGate } from './slack-rate-gate.js';
import { clip, neutralizePlainText } from './slack-text.js';

export { noticeEventType };

/**
 * Slack error codes after which no post to the channel can succeed as things stand,
 * mapped to why: the pipeline then holds the channel's notices and re-checks it
 * (conversations.info) until fundbot can post again, then posts them as a catch-up.
 * Token-wide errors hold every channel of the workspace the same way: the operator
 * fixing the token finds every notice of the meantime still there.
 */
export const unavailableChannelErrors: Readonly<Record<string, ChannelAccessProblem>> = {
  channel_not_found: 'gone',
  is_archived: 'archived',
  not_in_channel: 'not-member',
  restricted_action: 'no-permission',
  invalid_auth: 'token-revoked',
  not_authed: 'token-revoked',
  token_revoked: 'token-revoked',
  token_expired: 'token-revoked',
  account_inactive: 'token-revoked',
};

/** How late Slack may land a post it took, as far as a doubt waits for it without message events. */
export const slackLateLandingMs = 90_000;

/**
 * How long a post is given before it is called in doubt: Slack answers chat.postMessage
 * within a second or two; 10 s keeps a hung post from holding its channel's later
 * notices longer than the pipeline's stall limit.
 */
export const defaultPostTimeoutMs = 10_000;

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
  options: {
    slackApiUrl?: string;
    postTimeoutMs?: number;
    logger?: webApi.WebClientOptions['logger'];
    /** The HTTP client under the Web API client (default the global fetch; the chaos tests' wire). */
    fetch?: webApi.WebClientOptions['fetch'];
  },
): webApi.WebClient {
  return new webApi.WebClient(token, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.postTimeoutMs ?? defaultPostTimeoutMs,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}

/**
 * Posts notices into Slack channels for the delivery pipeline, exactly once per
 * (delivery, channel) with its ledger.
 *
 * Slack has no idempotency key for posting. Every notice carries `metadata: {
 * event_type: 'fundbot_notice', event_payload: { event_id } }` (a file share, which
 * cannot carry metadata, has the key's marker in its file name), and a delivery in
 * doubt (timeout, dropped connection, 5xx, crash) is decided by the pipeline with this
 * poster's `doubt.look` (one conversations.history call, see slack-look.ts), never by
 * posting again blind. A post is given `postTimeoutMs` (10 s); no look is trusted
 * before that plus a margin (`doubt.settleMs`).
 *
 * Errors: a channel that cannot take messages, or a token Slack refuses, throws a
 * {@link ChannelUnavailableError} (the pipeline holds the channel's notices); an answer
 * proving nothing was posted (Slack `ok: false`, HTTP 4xx, 429, a connection never
 * opened) a {@link DeliveryNotPostedError}; anything after the request may have reached
 * Slack is rethrown as is: in doubt.
 *
 * Rate limits: a 429's Retry-After is obeyed in the scope of the limit that answered it
 * (slack-rate-gate.ts): posts to that channel, or that method's calls (looks, edits,
 * uploads); nothing more is sent there before it ends, and other channels go on.
 */
export function createSlackPoster(
  options: SlackPosterOptions,
): ChannelPoster & { readonly gate: SlackRateGate } {
  const { client } = options;
  const clock = options.clock ?? systemClock;
  const postTimeoutMs = options.postTimeoutMs ?? defaultPostTimeoutMs;
  const historyIntervalMs = options.historyIntervalMs ?? 60_000;
  const gate = createSlackRateGate(clock);
  const look = createSlackLook({ client });
  const skew = clockSkew();

  return {
    platform: 'slack',
    threads: 'replies',
    gate,
    async post(
      channel: ChannelRef,
      message: NeutralMessage,
      idempotencyKey: string,
      thread?: ThreadTarget,
      attemptAt?: number,
    ): Promise<PostReceipt | undefined> {
      if (channel.platform !== 'slack') {
        throw new Error(
          `The Slack poster got a ${channel.platform} channel: the pipeline must pick the poster by platform`,
        );
      }
      const upload = message.image?.kind === 'attachment';
      const scope = upload ? rateScope('files.upload') : rateScope('chat.postMessage', channel.channelId);
      gate.check(scope, 'the notice');
      try {
        if (message.image?.kind === 'attachment') {
          await client.files.uploadV2({
            channel_id: channel.channelId,
            file: Buffer.from(message.image.data),
            filename: markedFilename(message.image.filename, idempotencyKey),
            title: clip(neutralizePlainText(message.title ?? message.image.alt), limits.messageTitle),
            alt_text: clip(neutralizePlainText(message.image.alt), slackLimits.fileAltText),
            // The message beside the file as rich text: literal user text, no mrkdwn (see slack-text.ts).
            blocks: markedBlocks([renderRichText(message)], idempotencyKey, attemptAt),
          });
          return undefined;
        }
        const { blocks, text } = renderBlocks(message);
        const sentAt = clock.now();
        const answer = await client.chat.postMessage({
          channel: channel.channelId,
          // A reply in a thread (the daily thread, a batch's names): its parent's ts. Never broadcast.
          ...(thread ? { thread_ts: thread.parentMessageId } : {}),
          // The key (and the attempt) in the first block's id too: message events keep it (see deliveryBlockId).
          blocks: markedBlocks(blocks, idempotencyKey, attemptAt),
          text,
          unfurl_links: false,
          unfurl_media: false,
          metadata: noticeMetadata(idempotencyKey, attemptAt),
        });
        if (answer.ts) skew.sample(Number(answer.ts) * 1000, sentAt, clock.now());
        return answer.ts ? { messageId: answer.ts } : undefined;
      } catch (error) {
        throw classifySlackError(error, channel, gate, scope);
      }
    },
    async edit(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
      const scope = rateScope('chat.update');
      gate.check(scope, 'the correction');
      // The same escaped rendering as a post: hostile text in an edit stays inert.
      const { blocks, text } = renderBlocks(message);
      try {
        await client.chat.update({ channel: channel.channelId, ts: messageId, blocks, text });
      } catch (error) {
        throw classifySlackError(error, channel, gate, scope);
      }
    },
    async remove(channel: ChannelRef, messageId: string): Promise<void> {
      const scope = rateScope('chat.delete');
      gate.check(scope, 'the removal of an extra copy');
      try {
        await client.chat.delete({ channel: channel.channelId, ts: messageId });
      } catch (error) {
        // Gone already (removed by another replica, or by someone in the channel): what was wanted.
        if (platformErrorCode(error) === 'message_not_found') return;
        throw classifySlackError(error, channel, gate, scope);
      }
    },
    doubt: {
      // Slack may still be processing a request the client gave up on: a margin past the timeout.
      settleMs: postTimeoutMs + 5_000,
      repeatSafeMs: 0,
      // Slack may land a post it took long after the client gave up (measured: 25-35 s, seen 90 s): without
      // message events to remove a late copy, nothing is posted again before a look covered this span.
      lateLandingMs: slackLateLandingMs,
      newestFirstPageSize: historyPageLimit,
      // How far Slack's message times and our clock disagree, as measured on our own posts.
      get clockMarginMs(): number {
        return skew.marginMs();
      },
      // Slack counts conversations.history and .replies per workspace and method.
      lookBudget: (channel, thread) => ({
        scope: `slack:${channel.workspaceId}:${thread ? 'replies' : 'history'}`,
        intervalMs: historyIntervalMs,
      }),
      async look(channel, request, thread) {
        const scope = rateScope(thread ? 'conversations.replies' : 'conversations.history');
        gate.check(scope, 'a look at the channel history');
        try {
          return await look(channel, request, thread);
        } catch (error) {
          throw classifySlackError(error, channel, gate, scope);
        }
      },
    },
  };
}

/** Maps a Web API failure to what it proves about the post (see createSlackPoster). */
function classifySlackError(
  error: unknown,
  channel: ChannelRef,
  gate: SlackRateGate,
  scope: string,
): unknown {
  if (!(error && typeof error === 'object' && 'code' in error)) return error;
  switch (error.code) {
    case webApi.ErrorCode.RateLimitedError: {
      const retryAfter = (error as webApi.WebAPIRateLimitedError).retryAfter;
      gate.pause(scope, retryAfter);
      return new DeliveryNotPostedError(`Slack rate limit: retry after ${retryAfter} s`, retryAfter * 1000, {
        cause: error,
      });
    }
    case webApi.ErrorCode.PlatformError: {
      const code = platformErrorCode(error);
      const reason = code ? unavailableChannelErrors[code] : undefined;
      if (reason) return new ChannelUnavailableError(channel, reason, undefined, { cause: error });
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

/** A plain file name (Slack shows it: no path, no control characters) carrying the delivery's marker. */
function markedFilename(name: string, idempotencyKey: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'chart.png';
  const dot = base.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [base.slice(0, dot), base.slice(dot)] : [base, ''];
  return `${stem}-${fileMarker(idempotencyKey)}${ext}`;
}

/**
 * How far Slack's clock and ours are assumed to disagree before a post measured it: a
 * server kept by NTP is within a second; 10 s is a wide bound, and the first post
 * measures the real offset (a larger one widens every look that follows).
 */
export const unmeasuredClockMarginMs = 10_000;

/**
 * Slack's clock against ours, from our own posts: a message's `ts` is Slack's time of
 * it, between our send and the answer. A look then reaches only that far (plus 5 s)
 * around where a post can be, instead of a blind minute: in a busy channel, where one
 * history call shows 15 messages, that is one call instead of four or five.
 */
function clockSkew() {
  const samples: number[] = [];
  return {
    sample(slackMs: number, sentAt: number, answeredAt: number) {
      const offset = slackMs < sentAt ? sentAt - slackMs : slackMs > answeredAt ? slackMs - answeredAt : 0;
      samples.push(offset);
      if (samples.length > 20) samples.shift();
    },
    /** {@link unmeasuredClockMarginMs} until a post measured it. */
    marginMs(): number {
      return samples.length === 0 ? unmeasuredClockMarginMs : Math.max(...samples) + 5_000;
    },
  };
}
