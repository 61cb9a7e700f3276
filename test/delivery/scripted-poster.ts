import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelAccessProblem, ChannelRef } from '../../src/core/ports.js';
import { ChannelUnavailableError } from '../../src/delivery/channel-unavailable-error.js';
import { DeliveryNotPostedError } from '../../src/delivery/delivery-not-posted-error.js';
import type {
  ChannelPoster,
  LookPage,
  LookRequest,
  PostReceipt,
  ThreadTarget,
} from '../../src/delivery/ports.js';
import type { ManualClock } from '../support/manual-clock.js';
import { waitUntil } from '../support/wait-until.js';

/** What the next post to a channel does (scripted per channel id, used up in order). */
export type PostFault =
  /** The platform refuses it before doing anything (HTTP 4xx, `ok: false`). */
  | { readonly kind: 'refuse' }
  /** It lands, but the answer is lost (a 5xx after processing, a reset connection). */
  | { readonly kind: 'lost-answer' }
  /** It fails in a way that leaves it in doubt, and it did NOT land (a 5xx before processing). */
  | { readonly kind: 'server-error' }
  /** No answer, and it did NOT land (a timeout before the platform got it): in doubt until its settle time. */
  | { readonly kind: 'lost-request' }
  /** A 429 with Retry-After. */
  | { readonly kind: 'rate-limit'; readonly retryAfterMs: number }
  /** The channel refuses the bot (not in channel, archived, ...). */
  | { readonly kind: 'unavailable'; readonly reason: ChannelAccessProblem }
  /** No answer until `release()` is called (or the test ends): then it lands. */
  | { readonly kind: 'hang' }
  /** It lands at once, and the answer never comes (the process dies waiting for it). */
  | { readonly kind: 'land-and-hang' };

export interface PostedMessage {
  readonly id: string;
  readonly channel: ChannelRef;
  readonly message: NeutralMessage;
  readonly key: string;
  readonly at: number;
  readonly thread?: ThreadTarget;
  /** When the attempt that posted it began, as the pipeline told the poster. */
  readonly attemptAt?: number;
}

/**
 * A chat platform in memory for the pipeline's module tests: messages get ids and
 * times, posts can be scripted to fail in each way a real platform fails, and the
 * platform's look (one call, a budget per channel) shows the bot's messages by key.
 * The Slack and Discord fakes drive the real SDKs in the platform tests; this one
 * drives the pipeline's rules.
 */
export class ScriptedPoster implements ChannelPoster {
  readonly messages: PostedMessage[] = [];
  readonly attempts: { channel: ChannelRef; key: string; at: number; attemptAt?: number }[] = [];
  /** Message ids removed (`removes` on): the pipeline's removals of extra copies. */
  readonly removed: string[] = [];
  /** Present with the `removes` option: removes a message, as Slack's chat.delete. */
  readonly remove?: (channel: ChannelRef, messageId: string) => Promise<void>;
  readonly edits: { channel: ChannelRef; messageId: string; message: NeutralMessage }[] = [];
  readonly looks: LookRequest[] = [];
  readonly threads = 'replies' as const;
  readonly #faults = new Map<string, PostFault[]>();
  /** Retry-After (ms) of the next looks, refused as rate limited. */
  readonly #lookRefusals: number[] = [];
  readonly #hung: (() => void)[] = [];
  #next = 0;

  constructor(
    readonly platform: ChannelRef['platform'],
    private readonly clock: ManualClock,
    private readonly options: {
      settleMs?: number;
      lookIntervalMs?: number;
      repeatSafeMs?: number;
      /** How long after its attempt a post may still land (Slack without message events: 90 s); none when absent. */
      lateLandingMs?: number;
      /** Messages one look shows, newest first (Slack: 15); the whole span when absent. */
      lookPageSize?: number;
      /** The platform can remove a message (the pipeline removes extra copies). */
      removes?: boolean;
    } = {},
  ) {
    if (options.removes)
      this.remove = async (_channel, messageId) => {
        this.removed.push(messageId);
        const at = this.messages.findIndex((m) => m.id === messageId);
        if (at >= 0) this.messages.splice(at, 1);
      };
  }

  /** The next posts to this channel fail like this, in order. */
  fail(channelId: string, ...faults: PostFault[]): this {
    this.#faults.set(channelId, [...(this.#faults.get(channelId) ?? []), ...faults]);
    return this;
  }

  /** The next looks are refused as rate limited, each asking to wait `retryAfterMs`. */
  refuseLooks(...retryAfterMs: number[]): this {
    this.#lookRefusals.push(...retryAfterMs);
    return this;
  }

  /** Lets every hung post answer. */
  release(): void {
    for (const go of this.#hung.splice(0)) go();
  }

  /** Resolves once `count` posts hang (the test then moves the clock past the stall time). */
  async untilHung(count = 1): Promise<void> {
    // As long as a test may take (20 s), looking again after each turn of the event loop.
    await waitUntil(`${count} hung posts`, () => this.#hung.length >= count, {
      timeoutMs: 20_000,
      everyMs: 0,
    });
  }

  in(channelId: string): PostedMessage[] {
    return this.messages.filter((m) => m.channel.channelId === channelId);
  }

  async post(
    channel: ChannelRef,
    message: NeutralMessage,
    key: string,
    thread?: ThreadTarget,
    attemptAt?: number,
  ): Promise<PostReceipt> {
    this.attempts.push({
      channel,
      key,
      at: this.clock.now(),
      ...(attemptAt !== undefined ? { attemptAt } : {}),
    });
    const fault = this.#faults.get(channel.channelId)?.shift();
    const land = () => {
      this.#next += 1;
      const posted = {
        id: `m${this.#next}`,
        channel,
        message,
        key,
        at: this.clock.now(),
        ...(thread ? { thread } : {}),
        ...(attemptAt !== undefined ? { attemptAt } : {}),
      };
      this.messages.push(posted);
      return { messageId: posted.id };
    };
    switch (fault?.kind) {
      case undefined:
        return land();
      case 'refuse':
        throw new DeliveryNotPostedError('refused (scripted)');
      case 'rate-limit':
        throw new DeliveryNotPostedError('rate limited (scripted)', fault.retryAfterMs);
      case 'unavailable':
        throw new ChannelUnavailableError(channel, fault.reason);
      case 'server-error':
        throw Object.assign(new Error('HTTP 500 (scripted)'), { status: 500 });
      case 'lost-request':
        throw Object.assign(new Error('timed out before the platform got it (scripted)'), {
          code: 'ETIMEDOUT',
        });
      case 'lost-answer':
        land();
        throw Object.assign(new Error('connection reset after the post (scripted)'), { code: 'ECONNRESET' });
      case 'hang':
        return new Promise((resolve) => this.#hung.push(() => resolve(land())));
      case 'land-and-hang':
        land();
        return new Promise((resolve) => this.#hung.push(() => resolve({ messageId: 'never' })));
    }
  }

  async edit(channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
    this.edits.push({ channel, messageId, message });
  }

  get doubt() {
    return {
      settleMs: this.options.settleMs ?? 15_000,
      // Messages are stamped with the test's own clock.
      clockMarginMs: 0,
      repeatSafeMs: this.options.repeatSafeMs ?? 0,
      ...(this.options.lateLandingMs !== undefined ? { lateLandingMs: this.options.lateLandingMs } : {}),
      ...(this.options.lookPageSize !== undefined ? { newestFirstPageSize: this.options.lookPageSize } : {}),
      lookBudget: (channel: ChannelRef) => ({
        scope: `scripted:${channel.channelId}`,
        intervalMs: this.options.lookIntervalMs ?? 60_000,
      }),
      look: async (channel: ChannelRef, request: LookRequest): Promise<LookPage> => {
        const refused = this.#lookRefusals.shift();
        if (refused !== undefined) throw new DeliveryNotPostedError('look rate limited (scripted)', refused);
        this.looks.push(request);
        const inSpan = this.in(channel.channelId)
          .filter((m) => m.at >= request.from && m.at <= request.to)
          .reverse();
        const offset = Number(request.cursor ?? 0);
        const size = this.options.lookPageSize ?? inSpan.length;
        const page = inSpan.slice(offset, offset + size);
        const complete = offset + size >= inSpan.length;
        const lowest = Math.min(request.to, ...page.map((m) => m.at));
        return {
          found: new Map(page.map((m) => [m.key, m.id])),
          covered: { from: complete ? request.from : lowest, to: request.to },
          ...(complete ? {} : { cursor: String(offset + size) }),
          shown: page.length,
        };
      },
    };
  }
}
