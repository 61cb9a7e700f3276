import { z } from 'zod';
import { type FundbotEvent, noticeKindOf } from '../domain/events.js';
import { type Clock, systemClock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import { channelKey } from './channel-key.js';
import { ChannelUnavailableError } from './channel-unavailable-error.js';
import type { CommandCore, Locale } from './command-core.js';
import type { CoreLogger } from './command-core-deps.js';
import type { NeutralMessage } from './message.js';
import type { ChannelPoster, ChannelRef, SubscriptionStore } from './ports.js';
import { errorSummary } from './read-failure.js';

/** Options of {@link createNoticeRouter}. */
export interface NoticeRouterOptions {
  readonly core: Pick<CommandCore, 'renderNotice' | 'localeFor'>;
  readonly subscriptions: SubscriptionStore;
  readonly posters: readonly ChannelPoster[];
  /** Where per-(event, channel) deliveries are recorded; shared by all replicas. */
  readonly store: KeyValueStore;
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
}

export interface NoticeRouter {
  /**
   * Delivers one event to every channel subscribed to its kind. Resolves when
   * every channel got it (or is permanently unavailable); throws a
   * {@link NoticeDeliveryError} when some channel failed in a way worth
   * retrying, so the outbox retries the event. Channels that already got the
   * event are skipped on the retry.
   */
  deliver(event: FundbotEvent): Promise<void>;
}

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

const deliveryRecordSchema = z.object({
  at: z.number(),
  /** `failing`: retryable failures since `at`; the others are final for this (event, channel). */
  outcome: z.enum(['posted', 'unavailable', 'failing', 'abandoned']),
});

const defaultTtlMs = 14 * 24 * 3_600_000;
const defaultMaxChannelRetryMs = 30 * 60_000;

/** The idempotency key for one event in one channel (adapters hash it to their size limit). */
export function noticeIdempotencyKey(eventId: string, channel: ChannelRef): string {
  return `${eventId}@${channelKey(channel)}`;
}

/**
 * Routes engine events to subscribed channels: the outbox's delivery function.
 *
 * Exactly-once per channel as far as the store allows: a delivery is recorded
 * under (event, channel) right after the poster succeeds, and a retry skips
 * recorded channels. The window between a successful post and its record (a
 * crash in between) is narrowed by the idempotency key handed to the poster:
 * Discord's nonce dedupes only for a few minutes, and Slack has none, so a crash
 * in that window followed by a late restart can repeat one notice.
 *
 * A channel that keeps failing with retryable errors is given up for that event
 * after `maxChannelRetryMs` (logged as an error), so it cannot block the
 * project's later notices in the other channels for longer than that.
 */
export function createNoticeRouter(options: NoticeRouterOptions): NoticeRouter {
  const { core, subscriptions, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const ttl = options.deliveryRecordTtlMs ?? defaultTtlMs;
  const maxChannelRetryMs = options.maxChannelRetryMs ?? defaultMaxChannelRetryMs;
  const posters = new Map(options.posters.map((p) => [p.platform, p]));
  const recordKey = (eventId: string, channel: ChannelRef) =>
    `notices/delivered/${encodeURIComponent(eventId)}/${channelKey(channel)}`;

  async function deliver(event: FundbotEvent): Promise<void> {
    const kind = noticeKindOf(event);
    const subscribed = await subscriptions.forProject(event.project, kind);
    // One channel can hold only one subscription per project, but be defensive about duplicates.
    const channels = [...new Map(subscribed.map((s) => [channelKey(s.channel), s.channel])).values()];
    // Rendered once per locale, not once per channel.
    const rendered = new Map<Locale, NeutralMessage>();
    const failed: string[] = [];
    let firstFailure: unknown;

    await Promise.all(
      channels.map(async (channel) => {
        const key = channelKey(channel);
        let posted = false;
        let failingSince: number | undefined;
        try {
          const record = await store.get(recordKey(event.id, channel), deliveryRecordSchema);
          if (record && record.outcome !== 'failing') return;
          failingSince = record?.at;
          const poster = posters.get(channel.platform);
          if (!poster) {
            // Retrying cannot help a deployment that does not run this platform's adapter: log and move on.
            logger?.warn(
              { eventId: event.id, channel: key, platform: channel.platform },
              'no poster for this platform: notice skipped (is the adapter configured?)',
            );
            return;
          }
          const locale = await core.localeFor(channel);
          let message = rendered.get(locale);
          if (!message) {
            message = core.renderNotice(event, locale);
            rendered.set(locale, message);
          }
          await poster.post(channel, message, noticeIdempotencyKey(event.id, channel));
          posted = true;
          options.onPosted?.(event, channel);
          await store.set(recordKey(event.id, channel), { at: clock.now(), outcome: 'posted' }, ttl);
        } catch (error) {
          if (posted) {
            // The notice is out; failing the event now would post it again on the retry.
            logger?.error(
              { eventId: event.id, channel: key, ...errorSummary(error) },
              'notice posted but its delivery record could not be stored: a retry may repeat it',
            );
            return;
          }
          if (error instanceof ChannelUnavailableError) {
            logger?.warn(
              { eventId: event.id, channel: key, reason: error.reason },
              `${error.message} (notice skipped)`,
            );
            await store
              .set(recordKey(event.id, channel), { at: clock.now(), outcome: 'unavailable' }, ttl)
              .catch(() => {});
            return;
          }
          const now = clock.now();
          if (failingSince !== undefined && now - failingSince >= maxChannelRetryMs) {
            logger?.error(
              { eventId: event.id, channel: key, failingForMs: now - failingSince, ...errorSummary(error) },
              'notice given up for this channel after failing too long (later notices go on)',
            );
            await store
              .set(recordKey(event.id, channel), { at: now, outcome: 'abandoned' }, ttl)
              .catch(() => {});
            return;
          }
          if (failingSince === undefined) {
            await store
              .set(recordKey(event.id, channel), { at: now, outcome: 'failing' }, ttl)
              .catch(() => {});
          }
          logger?.warn({ eventId: event.id, channel: key, ...errorSummary(error) }, 'notice delivery failed');
          failed.push(key);
          firstFailure ??= error;
        }
      }),
    );
    if (failed.length > 0) throw new NoticeDeliveryError(event.id, failed, { cause: firstFailure });
  }

  return { deliver };
}
