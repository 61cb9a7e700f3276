import { schedule as nodeCronSchedule } from 'node-cron';
import type {
  ChannelRef,
  Locale,
  NeutralMessage,
  ProjectReadModel,
  SubscriptionStore,
} from '../core/index.js';
import { assertTimeZone, parseTimeOfDay } from '../core/index.js';
import type { ItemOutcome, ScheduledPost } from '../delivery/index.js';
import { channelKey } from '../domain/channels.js';
import { type Logger, silentLogger } from '../domain/logger.js';
import type { Clock } from '../lib/clock.js';
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
  /**
   * Posts through the delivery pipeline (`Delivery.postScheduled`): once per id and
   * channel across replicas and restarts, by its ledger and claims.
   */
  readonly post: (request: ScheduledPost) => Promise<ItemOutcome>;
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
  readonly chartOptions?: FundingChartOptions;
}

export interface DigestRunReport {
  readonly date: string;
  /** Channels posted to in this run, as `project platform/workspace/channel`. */
  readonly sent: readonly string[];
  readonly failed: readonly string[];
  /** Still on their way when the run ended (in doubt, behind a Retry-After): they finish in their lane. */
  readonly pending: readonly string[];
}

export interface DigestScheduler {
  /** Schedules the check every minute (node-cron, in the configured time zone). Idempotent. */
  start(): void;
  /** Removes the cron task and waits for a running check to finish: no timer is left behind. */
  stop(): Promise<void>;
  /** Sends every digest that is due and not yet sent today. Concurrent calls share one run. */
  runNow(): Promise<DigestRunReport>;
  /** The same check as {@link runNow}, logged as a catch-up: call once after start-up. */
  sendMissedOnStart(): Promise<DigestRunReport>;
}

/** A project checked today is checked again after this long (a refused channel, a post still on its way). */
const RECHECK_AFTER_MS = 60 * 60_000 - 30_000;

/** How long one run waits for a channel's post; a post still on its way finishes in its lane (reported pending). */
const POST_WAIT_MS = 20_000;

/**
 * Sends each project's daily digest to the channels subscribed to `digest`, at `time`
 * in `timeZone`, through the delivery pipeline under the id `digest:<project>:<date>`:
 * its ledger and claims post it once per (project, channel, local date) across
 * replicas and restarts (a replica that checks in the same second finds the claim or
 * the record), it waits out Retry-After, resolves a post left in doubt by looking (the
 * chart's file name carries the delivery's marker on Slack, the nonce on Discord), and
 * a channel the bot cannot post in gets it as soon as it can again (the pipeline holds
 * it until its day ends), else at the next hourly check.
 *
 * The cron task fires every minute (at second 5, so a timer that fires a hair early
 * still sees the right minute) and checks each project the first time it is due that
 * day (at the configured time, or as soon as a replica holds it), then hourly; whether
 * a digest is due is decided by {@link digestDue} from the injected clock, so a failed
 * channel is retried an hour later and a time in a skipped DST hour still fires that day.
 * Cost: one ledger read per subscribed channel and hourly check after the digest's
 * time (nothing is built for a channel that has it); the other ticks read nothing.
 */
export function createDigestScheduler(options: DigestSchedulerOptions): DigestScheduler {
  const timeZone = options.timeZone ?? 'UTC';
  const time = options.time ?? '09:00';
  assertTimeZone(timeZone);
  const minuteOfDay = parseTimeOfDay(time);
  const logger = options.logger ?? silentLogger;
  const cron = options.cron ?? { schedule: nodeCronSchedule };
  const { clock } = options;

  let task: { destroy(): void | Promise<void> } | undefined;
  let running: Promise<DigestRunReport> | undefined;
  /** When each project was last checked, and for which local date. */
  const checked = new Map<string, { readonly date: string; readonly at: number }>();

  async function run(reason: 'scheduled' | 'manual' | 'startup'): Promise<DigestRunReport> {
    const now = clock.now();
    const sent: string[] = [];
    const failed: string[] = [];
    const pending: string[] = [];
    const today = digestDue({ now, timeZone, minuteOfDay, lastSentDate: undefined });
    // Before the configured time nothing can be due: skip the store reads.
    if (!today.due) return { date: today.date, sent, failed, pending };

    for (const project of options.projects()) {
      // The minute's tick checks a project once a day and then hourly: at the configured time, or
      // as soon as this process holds it (a replica taking over one whose holder was killed at the
      // digest's minute), not at the next hour. Asked (a command, the start), it checks them all.
      const last = checked.get(project);
      if (reason === 'scheduled' && last?.date === today.date && now - last.at < RECHECK_AFTER_MS) continue;
      checked.set(project, { date: today.date, at: now });
      try {
        await runProject(project, now, today.date, { sent, failed, pending });
      } catch (error) {
        // One project's trouble (API down, store unreadable) must not stop the others.
        logger.error(
          { project, error: errorText(error) },
          'digest: project skipped; retrying at the next hourly check',
        );
      }
    }
    if (sent.length > 0 || failed.length > 0 || pending.length > 0) {
      logger.info(
        { reason, date: today.date, sent: sent.length, failed: failed.length, pending: pending.length },
        'digest: run finished',
      );
    }
    return { date: today.date, sent, failed, pending };
  }

  async function runProject(
    project: string,
    now: number,
    date: string,
    { sent, failed, pending }: { sent: string[]; failed: string[]; pending: string[] },
  ): Promise<void> {
    // Built at most once per project and rendered once per locale, and only for a channel that posts it.
    let data: Promise<DigestData> | undefined;
    const rendered = new Map<Locale, Promise<NeutralMessage>>();
    const messageFor = async (locale: Locale) => {
      let message = rendered.get(locale);
      if (!message) {
        const milestones = options.milestonesFor?.(project);
        data ??= buildDigest({
          readModel: options.readModel,
          project,
          now,
          locale: 'en',
          timeZone,
          ...(milestones ? { milestones } : {}),
        });
        message = data.then((d) => renderDigest(d, locale, options.chartOptions ?? {}));
        rendered.set(locale, message);
        // A project that cannot be read now: the lane's retry reads it again, not this failure.
        message.catch(() => {
          data = undefined;
          rendered.delete(locale);
        });
      }
      return message;
    };
    const endOfDay = now + 24 * 60 * 60 * 1000;
    await Promise.all(
      (await options.subscriptions.forProject(project, 'digest')).map(async (subscription) => {
        const { channel } = subscription;
        const label = `${project} ${channelKey(channel)}`;
        const decision = digestDue({
          now,
          timeZone,
          minuteOfDay,
          lastSentDate: undefined,
          subscribedAt: subscription.kindsAddedAt?.digest ?? subscription.createdAt,
        });
        if (!decision.due) return;
        const outcome = await waitAtMost(
          options.post({
            id: `digest:${project}:${date}`,
            channel,
            kind: 'digest',
            occurredAt: now,
            // A day's digest posted the next day would be stale: given up at the end of its day.
            giveUpAt: endOfDay,
            render: async () => messageFor(await options.localeFor(channel)),
          }),
        );
        if (outcome?.kind === 'posted') sent.push(label);
        else if (outcome === undefined) pending.push(label);
        else if (outcome.kind === 'held') {
          // The bot cannot post in the channel: the pipeline posts it the moment it can again (today).
          pending.push(label);
          logger.warn(
            { project, channel: channelKey(channel) },
            'digest: fundbot cannot post in the channel; it goes out as soon as it can again',
          );
        } else if (outcome !== undefined && outcome.kind !== 'skipped') {
          failed.push(label);
          logger.warn(
            { project, channel: channelKey(channel), outcome: outcome.kind },
            outcome.kind === 'refused'
              ? 'digest: fundbot cannot post in the channel; retrying at the next hourly check'
              : 'digest: given up for today (see the delivery errors above)',
          );
        }
      }),
    );
  }

  /** The outcome, or undefined when the post is still on its way (it finishes in its lane). */
  async function waitAtMost(outcome: Promise<ItemOutcome>): Promise<ItemOutcome | undefined> {
    const timer = new AbortController();
    try {
      return await Promise.race([
        outcome,
        clock.sleep(POST_WAIT_MS, timer.signal).then(
          () => undefined,
          () => undefined,
        ),
      ]);
    } finally {
      timer.abort(new Error('digest post settled'));
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
      task = cron.schedule(
        '5 * * * * *',
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
