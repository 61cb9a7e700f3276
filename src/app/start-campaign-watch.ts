import type { FundbotConfig } from '../config/index.js';
import { type CampaignWatch, createCampaignWatch } from '../digest/index.js';
import type { GoalPaceOptions } from '../domain/goal-pace.js';
import type { Logger } from '../domain/logger.js';
import type { Clock } from '../lib/clock.js';
import type { Wiring } from './wire-fundbot.js';

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** The goal-pace alerts' options from the config's `campaign` section. */
export function goalPaceOptions(config: FundbotConfig['campaign']): GoalPaceOptions {
  return { windowMs: config.paceWindowMinutes * 60_000, minSupporters: config.paceMinSupporters };
}

/**
 * Starts the campaign checks (issue 32: goal-pace alerts, roll-calls) for the projects this process polls, and
 * runs one check at once (a restart catches up a roll-call whose time passed while it was down).
 */
export function startCampaignWatch(
  wiring: Wiring,
  config: FundbotConfig['campaign'],
  deps: { readonly clock: Clock; readonly logger: Logger; readonly projects: () => readonly string[] },
): CampaignWatch {
  const [hour, minute] = config.rollCallTime.split(':').map(Number) as [number, number];
  const watch = createCampaignWatch({
    readModel: wiring.engine.readModel,
    subscriptions: wiring.subscriptions,
    campaign: wiring.campaign,
    journal: wiring.rollCallJournal,
    store: wiring.campaignStore,
    localeFor: (channel) => wiring.core.localeFor(channel),
    timeZoneFor: (channel) => wiring.core.timeZoneFor(channel),
    post: (request) => wiring.delivery.postScheduled(request),
    clock: deps.clock,
    logger: deps.logger.child({ component: 'campaign' }),
    projects: deps.projects,
    goalPace: goalPaceOptions(config),
    rollCall: { weekday: weekdays.indexOf(config.rollCallWeekday), minuteOfDay: hour * 60 + minute },
    checkEverySec: config.checkEverySec,
    settingsStamp: wiring.settingsStamp,
  });
  watch.start();
  void watch.runNow();
  return watch;
}
