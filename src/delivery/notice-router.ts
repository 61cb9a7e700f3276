import {
  type ChannelRef,
  type CommandCore,
  type CoreLogger,
  channelKey,
  errorSummary,
  type NeutralMessage,
  type SubscriptionStore,
} from '../core/index.js';
import { type FundbotEvent, isCorrection, noticeKindOf } from '../domain/events.js';
import { type Clock, systemClock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import { ChannelUnavailableError } from './channel-unavailable-error.js';
import {
  createDeliveryLedger,
  type DeliveryKey,
  type DeliveryLedger,
  type DeliveryRecord,
} from './delivery-ledger.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import type { ChannelPoster, PostReceipt, ThreadTarget } from './ports.js';

/** Options of {@link createNoticeRouter}. */
export interface NoticeRouterOptions {
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor' | 'timeZoneFor'>;
  readonly subscriptions: SubscriptionStore;
  readonly posters: readonly ChannelPoster[];
  /** Where per-(event, channel) deliveries are recorded; shared by all replicas. */
  readonly store: KeyValueStore;
  /** The ledger over `store` (default: {@link createDeliveryLedger} with this clock, TTL and claims). */
  readonly ledger?: DeliveryLedger;
  /** Once-only claims shared by the replicas (Redis); default an in-process map. */
  readonly claims?: Claims;
  readonly logger?: CoreLogger;
  /** Timestamps of delivery records. Default: the system clock. */
  readonly clock?: Clock;
  /** How long a delivery record is kept: longer than the outbox ever retries an event. Default 14 days. */
  readonly deliveryRecordTtlMs?: number;
  /**
   * How long one channel may keep failing an event before it is given up for that channel.
   * The outbox delivers a project's events in order, so without a bound one broken channel
   * would hold back every later notice of the project in every channel. Default 30 minutes.
   */
  readonly maxChannelRetryMs?: number;
  /** Told about every notice actually posted (for metrics). */
  readonly onPosted?: (event: FundbotEvent, channel: ChannelRef) => void;
  /**
   * Told when a delivery in doubt was resolved by looking: `found` (it had landed:
   * not posted again) or `absent` (posted now). For metrics and the benchmark.
   */
  readonly onDoubtResolved?: (event: FundbotEvent, channel: ChannelRef, outcome: 'found' | 'absent') => void;
}

export interface NoticeRouter {
  /**
   * Delivers one event to every channel subscribed to its kind. Resolves when
   * every channel got it (or is permanently unavailable); throws a
   * {@link NoticeDeliveryError} when some channel failed in a way worth
   * retrying, so the outbox retries the event. Channels that already got the
   * event are skipped on the retry. `threads` (by channelKey) posts the event as
   * a reply in that thread of the channel (the daily thread).
   */
  deliver(
    event: FundbotEvent,
    only?: readonly ChannelRef[],
    threads?: ReadonlyMap<string, ThreadTarget>,
  ): Promise<void>;
}

/** Where the notice router keeps its delivery ledger in the store (pacing reads it for corrections). */
export const noticeLedgerPrefix = 'notices/delivered/';

/** Some channels failed with retryable errors; the others were delivered and recorded. */
export class NoticeDeliveryError extends Error {
  override readonly name = 'NoticeDeliveryError';
  constructor(
    readonly eventId: string,
    /** channelKey()s of the channels that failed. */
    readonly failedChannels: readonly string[],
    options?: ErrorOptions,
  ) {
    super(
      `notice ${eventId} failed for ${failedChannels.length} channel(s) (${failedChannels.slice(0, 5).join(', ')}); the outbox will retry them`,
      options,
    );
  }
}

const defaultMaxChannelRetryMs = 30 * 60_000;

/** The idempotency key for one event in one channel (adapters hash it to their size limit). */
export function noticeIdempotencyKey(eventId: string, channel: ChannelRef): string {
  return `${eventId}@${channelKey(channel)}`;
}

/** Why a channel's delivery must wait for a later retry (never posted blind). */
class DeliveryWaitError extends Error {
  override readonly name = 'DeliveryWaitError';
}

/**
 * Routes engine events to subscribed channels: the outbox's delivery function.
 *
 * Exactly once per channel, by the {@link DeliveryLedger}: an ATTEMPT is written
 * before each post and the platform's message id after it. A delivery whose
 * attempt was never confirmed (crash, timeout, reset connection, 5xx) is in
 * doubt; it is neither retried nor looked at while the attempt may still land
 * (`poster.inDoubtSettleMs`), then the poster LOOKS in the channel
 * (`findPosted`): found, the message id is recorded and nothing is posted; not
 * there (or the platform dedupes a repeat), it is posted. When the poster cannot
 * look yet (a rate limit), the event waits: the router throws a
 * {@link NoticeDeliveryError} and the outbox retries later. An answer that proves
 * nothing was posted ({@link DeliveryNotPostedError}) clears the attempt.
 *
 * Within one process a delivery has a single request in flight: a second
 * `deliver` of the same event while the first is posting waits for a retry.
 * Across processes, the engine's lease gives a project's outbox to one replica,
 * and the settle time covers a request left by a crashed one.
 *
 * A channel that keeps failing is given up for that event after
 * `maxChannelRetryMs` (logged as an error), so it cannot block the project's
 * later notices in the other channels for longer than that.
 */
export function createNoticeRouter(options: NoticeRouterOptions): NoticeRouter {
  const { core, subscriptions, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const ledger =
    options.ledger ??
    createDeliveryLedger(store, {
      clock,
      ...(options.deliveryRecordTtlMs !== undefined ? { ttlMs: options.deliveryRecordTtlMs } : {}),
      prefix: noticeLedgerPrefix,
      ...(options.claims !== undefined ? { claims: options.claims } : {}),
    });
  const maxChannelRetryMs = options.maxChannelRetryMs ?? defaultMaxChannelRetryMs;
  const posters = new Map(options.posters.map((p) => [p.platform, p]));
  const inFlight = new Set<string>();

  async function deliver(
    event: FundbotEvent,
    only?: readonly ChannelRef[],
    threads?: ReadonlyMap<string, ThreadTarget>,
  ): Promise<void> {
    // A correction edits what was posted (createPacedRouter); it is never posted as a notice.
    if (isCorrection(event)) return;
    const kind = noticeKindOf(event);
    const wanted = only ? new Set(only.map(channelKey)) : undefined;
    const subscribed = (await subscriptions.forProject(event.project, kind)).filter(
      (s) => !wanted || wanted.has(channelKey(s.channel)),
    );
    // One channel can hold only one subscription per project, but be defensive about duplicates.
    const channels = [...new Map(subscribed.map((s) => [channelKey(s.channel), s.channel])).values()];
    // Rendered once per language and time zone, not once per channel.
    const rendered = new Map<string, NeutralMessage>();
    const render = async (channel: ChannelRef) => {
      const locale = await core.localeFor(channel);
      const timeZone = await core.timeZoneFor(channel);
      let message = rendered.get(`${locale}|${timeZone}`);
      if (!message) {
        message = core.renderNotice(event, locale, timeZone);
        rendered.set(`${locale}|${timeZone}`, message);
      }
      return message;
    };
    const failed: string[] = [];
    let firstFailure: unknown;

    await Promise.all(
      channels.map(async (channel) => {
        const flightKey = `${event.id}@${channelKey(channel)}`;
        if (inFlight.has(flightKey)) {
          failed.push(channelKey(channel));
          firstFailure ??= new DeliveryWaitError('a previous attempt is still in flight');
          return;
        }
        inFlight.add(flightKey);
        try {
          await deliverToChannel(event, channel, render, threads?.get(channelKey(channel)));
        } catch (error) {
          failed.push(channelKey(channel));
          firstFailure ??= error;
        } finally {
          inFlight.delete(flightKey);
        }
      }),
    );
    if (failed.length > 0) throw new NoticeDeliveryError(event.id, failed, { cause: firstFailure });
  }

  /** Resolves when this channel is done with the event; throws when it must be retried later. */
  async function deliverToChannel(
    event: FundbotEvent,
    channel: ChannelRef,
    render: (channel: ChannelRef) => Promise<NeutralMessage>,
    thread: ThreadTarget | undefined,
  ): Promise<void> {
    const key: DeliveryKey = { id: event.id, channel };
    // Another replica posting this very delivery now (a lost lease's last cycle): wait for a retry, which
    // then finds its record. The claim is given back once the record says what happened.
    if (!(await ledger.claim(key))) throw new DeliveryWaitError('another replica is delivering it now');
    try {
      await deliverClaimed(event, channel, key, render, thread);
    } finally {
      await ledger.release(key).catch(() => {});
    }
  }

  async function deliverClaimed(
    event: FundbotEvent,
    channel: ChannelRef,
    key: DeliveryKey,
    render: (channel: ChannelRef) => Promise<NeutralMessage>,
    thread: ThreadTarget | undefined,
  ): Promise<void> {
    const log = { eventId: event.id, channel: channelKey(channel) };
    let record = await ledger.get(key);
    if (record && record.state !== 'attempting' && record.state !== 'failing') return;
    const poster = posters.get(channel.platform);
    if (!poster) {
      // Retrying cannot help a deployment that does not run this platform's adapter: log and move on.
      logger?.warn(
        { ...log, platform: channel.platform },
        'no poster for this platform: notice skipped (is the adapter configured?)',
      );
      return;
    }
    const message = await render(channel);
    const idempotencyKey = noticeIdempotencyKey(event.id, channel);

    try {
      if (record?.state === 'attempting') {
        const startedAt = record.attemptStartedAt ?? record.at;
        const settleMs = poster.inDoubtSettleMs ?? 0;
        if (clock.now() < startedAt + settleMs) {
          throw new DeliveryWaitError(
            `a previous attempt may still land until ${new Date(startedAt + settleMs).toISOString()}`,
          );
        }
        if (poster.findPosted) {
          const found = await poster.findPosted(channel, idempotencyKey, startedAt, message, thread);
          if (found) {
            await ledger.confirm(key, found.messageId);
            logger?.warn(
              { ...log, messageId: found.messageId },
              'notice in doubt was found in the channel: not posted again',
            );
            options.onDoubtResolved?.(event, channel, 'found');
            return;
          }
        }
        options.onDoubtResolved?.(event, channel, 'absent');
      }
      record = await ledger.beginAttempt(key, record);
    } catch (error) {
      if (error instanceof ChannelUnavailableError) {
        // The look found the channel gone: it can neither show the notice nor take it.
        logger?.warn({ ...log, reason: error.reason }, `${error.message} (notice skipped)`);
        await ledger.close(key, 'unavailable').catch(() => {});
        return;
      }
      await giveUpIfTooLong(key, record, error);
      return;
    }

    let receipt: PostReceipt | undefined;
    try {
      receipt = (await poster.post(channel, message, idempotencyKey, thread)) ?? undefined;
    } catch (error) {
      if (error instanceof ChannelUnavailableError) {
        logger?.warn({ ...log, reason: error.reason }, `${error.message} (notice skipped)`);
        await ledger.close(key, 'unavailable').catch(() => {});
        return;
      }
      if (error instanceof DeliveryNotPostedError) {
        record = await ledger.clearAttempt(key, record).catch(() => record);
      } else {
        logger?.warn(
          { ...log, ...errorSummary(error) },
          'notice delivery in doubt: it is looked for in the channel before any repeat',
        );
      }
      await giveUpIfTooLong(key, record, error);
      return;
    }
    options.onPosted?.(event, channel);
    try {
      await ledger.confirm(key, receipt?.messageId);
    } catch (error) {
      // The attempt stays recorded: a retry finds the message by looking, it does not post blind.
      logger?.error(
        { ...log, ...errorSummary(error) },
        'notice posted but its confirmation could not be stored: a retry will look for it first',
      );
      throw error;
    }
  }

  /** Rethrows `error` for a retry, or gives the channel up once it has failed for too long. */
  async function giveUpIfTooLong(key: DeliveryKey, record: DeliveryRecord | undefined, error: unknown) {
    const now = clock.now();
    const since = record?.failingSince ?? record?.attemptStartedAt;
    if (since !== undefined && now - since >= maxChannelRetryMs) {
      logger?.error(
        {
          eventId: key.id,
          channel: channelKey(key.channel),
          failingForMs: now - since,
          ...errorSummary(error),
        },
        'notice given up for this channel after failing too long (later notices go on)',
      );
      await ledger.close(key, 'abandoned').catch(() => {});
      return;
    }
    if (!(error instanceof DeliveryWaitError)) {
      logger?.warn(
        { eventId: key.id, channel: channelKey(key.channel), ...errorSummary(error) },
        'notice delivery failed',
      );
    }
    throw error;
  }

  return { deliver };
}
