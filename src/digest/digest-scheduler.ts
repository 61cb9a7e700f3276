import { schedule as nodeCronSchedule } from 'node-cron';
import { z } from 'zod';
import type {
  ChannelRef,
  Locale,
  NeutralMessage,
  ProjectReadModel,
  SubscriptionStore,
} from '../core/index.js';
import { channelKey } from '../core/index.js';
import { type Logger, silentLogger } from '../domain/logger.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import { buildDigest, type DigestData } from './build-digest.js';
import { digestDue } from './digest-due.js';
import { assertTimeZone, parseTimeOfDay } from './local-time.js';
import { renderDigest } from './render-digest.js';
import type { FundingChartOptions } from './render-funding-chart.js';

/** The part of node-cron the scheduler uses; injectable so a test can watch what is scheduled. */
export interface CronLike {
  schedule(
    expression: string,
    task: () => unknown,
    options: { readonly timezone: string; readonly name: string; readonly noOverlap: boolean },
  ): { destroy(): void | Promise<void> };
}

/** The slice of the one {@link Logger} port the digest uses. */
export type DigestLogger = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface DigestSchedulerOptions {
  readonly readModel: ProjectReadModel;
  readonly subscriptions: SubscriptionStore;
  readonly localeFor: (channel: ChannelRef) => Promise<Locale>;
  readonly post: (channel: ChannelRef, message: NeutralMessage, idempotencyKey: string) => Promise<void>;
  /** Holds the per-(project, channel, date) delivery markers; share it across restarts. */
  readonly store: KeyValueStore;
  readonly clock: Clock;
  /** Local time of day, 24-hour `HH:MM`. Default `09:00`. */
  readonly time?: string;
  /** IANA time zone of `time` and of the digest's dates. Default `UTC`. */
  readonly timeZone?: string;
  /** The projects to digest (link captions). */
  readonly projects: () => readonly string[];
  /** A project's configured milestones (default: the engine's), so the digest reports what the engine announces. */
  readonly milestonesFor?: (project: string) => readonly number[] | undefined;
  readonly logger?: DigestLogger;
  /** Default: node-cron. */
  readonly cron?: CronLike;
  /** Posting attempts per channel and day before giving up (a deleted channel must not be retried forever). Default 3. */
  readonly maxAttempts?: number;
  readonly chartOptions?: FundingChartOptions;
}

export interface DigestRunReport {
  readonly date: string;
  /** Channels posted to in this run, as `project platform/workspace/channel`. */
  readonly sent: readonly string[];
  readonly failed: readonly string[];
}

export interface DigestScheduler {
  /** Schedules the hourly check (node-cron, in the configured time zone). Idempotent. */
  start(): void;
  /** Removes the cron task and waits for a running check to finish: no timer is left behind. */
  stop(): Promise<void>;
  /** Sends every digest that is due and not yet sent today. Concurrent calls share one run. */
  runNow(): Promise<DigestRunReport>;
  /** The same check as {@link runNow}, logged as a catch-up: call once after start-up. */
  sendMissedOnStart(): Promise<DigestRunReport>;
}

const markerSchema = z.object({
  state: z.enum(['sending', 'sent', 'failed']),
  idempotencyKey: z.string(),
  attempts: z.number().int().nonnegative(),
  updatedAt: z.number(),
});
type Marker = z.infer<typeof markerSchema>;

/** Markers only matter for the day they are about; three days covers any time zone and a late restart. */
const MARKER_TTL_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Sends each project's daily digest to the channels subscribed to `digest`, at
 * `time` in `timeZone`.
 *
 * Delivery guarantee, per (project, channel, local date):
 * 1. a `sending` marker with the idempotency key `digest:<project>:<channel>:<date>` is written,
 * 2. the digest is posted with that key,
 * 3. the marker becomes `sent`.
 * A crash between 1 and 3 leaves `sending`, and the next check (the hourly tick or
 * the start-up catch-up, same local day only) posts again with the SAME key, which
 * the adapters pass on (Discord nonce, Slack metadata) so a platform that still
 * remembers it drops the duplicate. So: at least once while the day lasts, and
 * exactly once unless a crash falls between posting and step 3 and the platform
 * has forgotten the key. After `maxAttempts` failed posts the day is given up.
 * With several replicas, run the scheduler on one of them: the store has no
 * compare-and-set, so two replicas checking in the same second could both post
 * (with the same idempotency key).
 *
 * The cron task fires hourly at the configured minute (plus 5 s, so a timer that
 * fires a hair early still sees the right minute); whether a digest is due is
 * decided by {@link digestDue} from the injected clock, so a failed channel is
 * retried an hour later and a time in a skipped DST hour still fires that day.
 */
export function createDigestScheduler(options: DigestSchedulerOptions): DigestScheduler {
  const timeZone = options.timeZone ?? 'UTC';
  const time = options.time ?? '09:00';
  assertTimeZone(timeZone);
  const minuteOfDay = parseTimeOfDay(time);
  const logger = options.logger ?? silentLogger;
  const cron = options.cron ?? { schedule: nodeCronSchedule };
  const maxAttempts = options.maxAttempts ?? 3;
  const { store, clock } = options;

  let task: { destroy(): void | Promise<void> } | undefined;
  let running: Promise<DigestRunReport> | undefined;

  async function run(reason: 'scheduled' | 'manual' | 'startup'): Promise<DigestRunReport> {
    const now = clock.now();
    const sent: string[] = [];
    const failed: string[] = [];
    const today = digestDue({ now, timeZone, minuteOfDay, lastSentDate: undefined });
    // Before the configured time nothing can be due: skip the store reads.
    if (!today.due) return { date: today.date, sent, failed };

    for (const project of options.projects()) {
      try {
        await runProject(project, now, today.date, sent, failed);
      } catch (error) {
        // One project's trouble (API down, store unreadable) must not stop the others.
        logger.error(
          { project, error: errorText(error) },
          'digest: project skipped; retrying at the next hourly check',
        );
      }
    }
    if (sent.length > 0 || failed.length > 0) {
      logger.info(
        { reason, date: today.date, sent: sent.length, failed: failed.length },
        'digest: run finished',
      );
    }
    return { date: today.date, sent, failed };
  }

  async function runProject(
    project: string,
    now: number,
    date: string,
    sent: string[],
    failed: string[],
  ): Promise<void> {
    // Built at most once per project and rendered once per locale, however many channels want it.
    let data: DigestData | undefined;
    const rendered = new Map<Locale, NeutralMessage>();
    for (const subscription of await options.subscriptions.forProject(project, 'digest')) {
      const { channel } = subscription;
      const label = `${project} ${channelKey(channel)}`;
      const key = `digest:${project}:${channelKey(channel)}:${date}`;
      let marker: Marker | undefined;
      try {
        marker = await store.get(key, markerSchema);
      } catch (error) {
        failed.push(label);
        logger.error(
          { project, channel: channelKey(channel), error: errorText(error) },
          'digest: marker unreadable',
        );
        continue;
      }
      const decision = digestDue({
        now,
        timeZone,
        minuteOfDay,
        lastSentDate: marker && marker.state !== 'sending' ? date : undefined,
        subscribedAt: subscription.kindsAddedAt?.digest ?? subscription.createdAt,
      });
      if (!decision.due) continue;
      // A failure to build is the project's, not the channel's: it throws out of here and costs no attempt.
      const milestones = options.milestonesFor?.(project);
      data ??= await buildDigest({
        readModel: options.readModel,
        project,
        now,
        locale: 'en',
        timeZone,
        ...(milestones ? { milestones } : {}),
      });

      // The idempotency key is the marker key: a retry after a crash reuses it.
      const attempts = (marker?.attempts ?? 0) + 1;
      if (marker?.state === 'sending') {
        logger.info(
          { project, channel: channelKey(channel), attempts },
          'digest: retrying an unconfirmed post',
        );
      }
      try {
        await setMarker(key, { state: 'sending', idempotencyKey: key, attempts, updatedAt: now });
        const locale = await options.localeFor(channel);
        let message = rendered.get(locale);
        if (!message) {
          message = renderDigest(data, locale, options.chartOptions ?? {});
          rendered.set(locale, message);
        }
        await options.post(channel, message, key);
      } catch (error) {
        failed.push(label);
        const givingUp = attempts >= maxAttempts;
        logger.warn(
          { project, channel: channelKey(channel), attempts, givingUp, error: errorText(error) },
          givingUp
            ? 'digest: posting failed; giving up for today (check the channel and the bot permissions)'
            : 'digest: posting failed; retrying at the next hourly check',
        );
        if (givingUp) {
          await setMarker(key, { state: 'failed', idempotencyKey: key, attempts, updatedAt: now }).catch(
            () => {},
          );
        }
        continue;
      }
      try {
        await setMarker(key, { state: 'sent', idempotencyKey: key, attempts, updatedAt: clock.now() });
      } catch (error) {
        // Posted but not confirmed: the next check retries with the same key (see the guarantee above).
        logger.warn(
          { project, channel: channelKey(channel), error: errorText(error) },
          'digest: posted, marker not saved',
        );
      }
      sent.push(label);
    }
  }

  function setMarker(key: string, marker: Marker): Promise<void> {
    return store.set(key, marker, MARKER_TTL_MS);
  }

  function runOnce(reason: 'scheduled' | 'manual' | 'startup'): Promise<DigestRunReport> {
    // The hourly tick and a start-up catch-up may overlap: one run at a time, shared.
    running ??= run(reason).finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      if (task) return;
      const minute = minuteOfDay % 60;
      task = cron.schedule(
        `5 ${minute} * * * *`,
        () =>
          runOnce('scheduled').catch((error: unknown) =>
            logger.error({ error: errorText(error) }, 'digest: scheduled run failed'),
          ),
        { timezone: timeZone, name: 'fundbot-digest', noOverlap: true },
      );
    },
    async stop() {
      const current = task;
      task = undefined;
      await current?.destroy();
      await running?.catch(() => {});
    },
    runNow: () => runOnce('manual'),
    sendMissedOnStart: () => runOnce('startup'),
  };
}

/** The error's class and message only: no stack, no cause chain (which could carry request details). */
function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
