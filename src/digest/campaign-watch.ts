import { schedule as nodeCronSchedule } from 'node-cron';
import type { ItemOutcome, ScheduledPost } from '../delivery/index.js';
import type { GoalPaceOptions } from '../domain/goal-pace.js';
import type { KeyValueStore } from '../lib/store.js';
import type { CampaignCheckDeps } from './campaign-check-deps.js';
import { createCampaignCheckStore } from './campaign-check-store.js';
import { cachedCampaignReads, type SettingsStamp } from './campaign-reads.js';
import type { CronLike } from './digest-scheduler.js';
import { checkGoalPace } from './pace-alert-check.js';
import { checkRollCall } from './roll-call-check.js';
import type { RollCallSchedule } from './roll-call-due.js';

export interface CampaignWatchOptions extends Omit<CampaignCheckDeps, 'postWithin' | 'checks'> {
  /** The campaign store (`campaign/…`): the checks keep their state there (campaign-check-store.ts). */
  readonly store: KeyValueStore;
  /** `Delivery.postScheduled`: once per id and channel across replicas and restarts. */
  readonly post: (request: ScheduledPost) => Promise<ItemOutcome>;
  /** The projects this process checks (on replicas: the ones it polls; the ledger keeps it once regardless). */
  readonly projects: () => readonly string[];
  readonly goalPace: GoalPaceOptions;
  readonly rollCall: RollCallSchedule;
  /** Seconds between checks, a divisor of 60 (default 60). */
  readonly checkEverySec?: number;
  readonly cron?: CronLike;
  /**
   * The settings' change stamp: the subscriptions and settings read by the checks are kept from round to round
   * until it moves (campaign-reads.ts). Absent: read at every check.
   */
  readonly settingsStamp?: SettingsStamp;
}

export interface CampaignWatch {
  start(): void;
  stop(): Promise<void>;
  /** One check of every project now (a start-up catch-up, a test). Concurrent calls share one run. */
  runNow(): Promise<void>;
}

/** How long a check waits for one post; a post still on its way finishes in its lane. */
const POST_WAIT_MS = 20_000;

/**
 * The schedule of the campaign checks (issue 32): the goal-pace alerts and the roll-calls, on node-cron like the
 * digest, checked for every project this process holds. What is due and what was said is decided from the
 * injected clock and the store (src/domain/goal-pace.ts, roll-call-due.ts), so a restart or another replica
 * continues where the last check ended, and each post goes through the delivery ledger once.
 */
export function createCampaignWatch(options: CampaignWatchOptions): CampaignWatch {
  const cron = options.cron ?? { schedule: nodeCronSchedule };
  const every = options.checkEverySec ?? 60;
  if (!Number.isInteger(every) || every < 1 || 60 % every !== 0) {
    throw new Error(`campaign.checkEverySec must divide 60 (1, 2, 5, 10, 15, 20, 30 or 60); got ${every}`);
  }
  const { clock, logger } = options;
  let task: { destroy(): void | Promise<void> } | undefined;
  let running: Promise<void> | undefined;

  async function postWithin(request: ScheduledPost): Promise<'posted' | 'pending' | 'failed'> {
    const timer = new AbortController();
    try {
      const outcome = await Promise.race([
        options.post(request),
        clock.sleep(POST_WAIT_MS, timer.signal).then(
          () => undefined,
          () => undefined,
        ),
      ]);
      if (outcome === undefined) return 'pending';
      return outcome.kind === 'posted' || outcome.kind === 'held' ? 'posted' : 'failed';
    } finally {
      timer.abort(new Error('campaign post settled'));
    }
  }
  const reads = options.settingsStamp && cachedCampaignReads(options, options.settingsStamp);
  const deps: CampaignCheckDeps = {
    ...options,
    ...(reads ? { subscriptions: reads.subscriptions, campaign: reads.campaign } : {}),
    checks: createCampaignCheckStore(options.store),
    postWithin,
  };

  async function run(): Promise<void> {
    await reads?.refresh();
    const projects = options.projects();
    for (const project of projects) {
      // One project's trouble (nothing cached yet, the store failing) must not stop the others.
      await checkGoalPace(deps, project, options.goalPace).catch((error: unknown) =>
        logger.warn(
          { project, error: errorText(error) },
          'goal-pace check skipped; trying again at the next',
        ),
      );
      await checkRollCall(deps, project, options.rollCall).catch((error: unknown) =>
        logger.warn(
          { project, error: errorText(error) },
          'roll-call check skipped; trying again at the next',
        ),
      );
    }
    // A check that finds nothing to say says nothing at info; at debug this line shows it ran (after its posts),
    // which is how an operator or a journey (the roll-call's restart) sees that checks went by and posted nothing.
    logger.debug({ projects: projects.length }, 'campaign checks done');
  }

  function runOnce(): Promise<void> {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      if (task) return;
      // Second 20: apart from the digest's second 5, so the two do not read the store in the same instant.
      task = cron.schedule(`${every === 60 ? '20' : `*/${every}`} * * * * *`, () => runOnce(), {
        timezone: 'UTC',
        name: 'fundbot-campaign',
        noOverlap: true,
      });
    },
    async stop() {
      const current = task;
      task = undefined;
      await current?.destroy();
      await running?.catch(() => {});
    },
    runNow: runOnce,
  };
}

/** The error's class and message only: no stack, no cause chain. */
function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
