import { schedule as nodeCronSchedule } from 'node-cron';
import type {
  ChannelRef,
  Locale,
  NeutralMessage,
  ProjectReadModel,
  SubscriptionStore,
} from '../core/index.js';
import { assertTimeZone, channelKey, parseTimeOfDay } from '../core/index.js';
import type { DeliveryKey, DeliveryLedger, DeliveryRecord } from '../delivery/index.js';
import { createDeliveryLedger, DeliveryNotPostedError } from '../delivery/index.js';
import { type Logger, silentLogger } from '../domain/logger.js';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';
import { buildDigest, type DigestData } from './build-digest.js';
import { digestDue } from './digest-due.js';
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
  /** Holds the per-(project, channel, date) delivery records (under `digest/delivery/`); share it across restarts. */
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
  /**
   * Hourly checks a channel may fail through before the day is given up (a deleted
   * channel must not be retried forever). Counted from the delivery's first failure. Default 3.
   */
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

/** Records only matter for the day they are about; three days covers any time zone and a late restart. */
const RECORD_TTL_MS = 3 * 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** States after which the day's digest is done for a channel: posted, or given up. */
const finished: ReadonlySet<DeliveryRecord['state']> = new Set(['posted', 'unavailable', 'abandoned']);

/**
 * Sends each project's daily digest to the channels subscribed to `digest`, at
 * `time` in `timeZone`.
 *
 * Delivery guarantee, per (project, channel, local date), recorded in the core's
 * {@link DeliveryLedger} (the one the notice router uses) under the id
 * `digest:<project>:<date>` and the channel:
 * 1. the attempt is recorded (`attempting`),
 * 2. the digest is posted with the idempotency key `digest:<project>:<channel>:<date>`,
 * 3. the record becomes `posted`.
 * A crash between 1 and 3 leaves `attempting` (in doubt), and the next check (the hourly tick or
 * the start-up catch-up, same local day only) posts again with the SAME key, which
 * the adapters pass on (Discord nonce, Slack metadata) so a platform that still
 * remembers it drops the duplicate. So: at least once while the day lasts, and
 * exactly once unless a crash falls between posting and step 3 and the platform
 * has forgotten the key. A channel still failing `maxAttempts - 1` hours after its
 * first failure is given up for the day (`abandoned`).
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
  const { clock } = options;
  const ledger: DeliveryLedger = createDeliveryLedger(options.store, {
    clock,
    ttlMs: RECORD_TTL_MS,
    prefix: 'digest/delivery/',
  });

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
      const idempotencyKey = `digest:${project}:${channelKey(channel)}:${date}`;
      const delivery: DeliveryKey = { id: `digest:${project}:${date}`, channel };
      let previous: DeliveryRecord | undefined;
      try {
        previous = await ledger.get(delivery);
      } catch (error) {
        failed.push(label);
        logger.error(
          { project, channel: channelKey(channel), error: errorText(error) },
          'digest: delivery record unreadable',
        );
        continue;
      }
      const decision = digestDue({
        now,
        timeZone,
        minuteOfDay,
        lastSentDate: previous && finished.has(previous.state) ? date : undefined,
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

      // A retry after a crash or a failure reuses the idempotency key.
      if (previous?.state === 'attempting') {
        logger.info({ project, channel: channelKey(channel) }, 'digest: retrying an unconfirmed post');
      }
      let attempts = 1;
      let attempt: DeliveryRecord | undefined;
      try {
        attempt = await ledger.beginAttempt(delivery, previous);
        // Counted in hourly checks since the first failure, which the ledger keeps.
        if (attempt.failingSince !== undefined)
          attempts += Math.floor((now - attempt.failingSince) / HOUR_MS);
        const locale = await options.localeFor(channel);
        let message = rendered.get(locale);
        if (!message) {
          message = renderDigest(data, locale, options.chartOptions ?? {});
          rendered.set(locale, message);
        }
        await options.post(channel, message, idempotencyKey);
      } catch (error) {
        failed.push(label);
        const givingUp = attempts >= maxAttempts;
        logger.warn(
          { project, channel: channelKey(channel), attempts, givingUp, error: errorText(error) },
          givingUp
            ? 'digest: posting failed; giving up for today (check the channel and the bot permissions)'
            : 'digest: posting failed; retrying at the next hourly check',
        );
        // A record the platform proved unposted is no longer in doubt; any other failure stays in doubt.
        const settle = givingUp
          ? ledger.close(delivery, 'abandoned')
          : error instanceof DeliveryNotPostedError
            ? ledger.clearAttempt(delivery, attempt)
            : Promise.resolve();
        await settle.catch(() => {});
        continue;
      }
      try {
        await ledger.confirm(delivery, undefined);
      } catch (error) {
        // Posted but not confirmed: the next check retries with the same key (see the guarantee above).
        logger.warn(
          { project, channel: channelKey(channel), error: errorText(error) },
          'digest: posted, delivery record not saved',
        );
      }
      sent.push(label);
    }
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
