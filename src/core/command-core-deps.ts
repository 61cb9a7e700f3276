import type { GoalPaceOptions } from '../domain/goal-pace.js';
import type { Logger } from '../domain/logger.js';
import type { TracedNotice } from '../domain/notice-trace.js';
import type { Clock } from '../lib/clock.js';
import type { Locale } from './command-core.js';
import type { HostedProjects } from './hosted-projects.js';
import type { NeutralMessage } from './message.js';
import type { ChannelAccess, ChannelRef, ProjectReadModel, SubscriptionStore } from './ports.js';
import type { CampaignSettings } from './settings/campaign-settings.js';
import type { ChannelAccessStates } from './settings/channel-access-states.js';
import type { DailyThreadSettings } from './settings/daily-thread-settings.js';
import type { LowStockSettings } from './settings/low-stock-settings.js';
import type { NoticeRulesSettings } from './settings/notice-rules-settings.js';
import type { PacingSettings } from './settings/pacing-settings.js';
import type { SettingsStore } from './settings/settings-store.js';

/**
 * How old a cached value may be before a command asks the engine to refresh it.
 * Figures that move (funding) are kept fresher than ones that rarely change.
 */
export interface Freshness {
  /** The project for /funding. */
  readonly fundingMs: number;
  /** The reward list for /rewards. */
  readonly rewardsMs: number;
  /** One reward for /reward. */
  readonly rewardMs: number;
  /** The project when only its title and currency are needed (/rewards, /reward). */
  readonly projectInfoMs: number;
}

export const defaultFreshness: Freshness = {
  // The engine re-reads the project at least every 45 s while supporters arrive, so a
  // 60 s window lets /funding answer from the cache in a busy campaign at no API cost.
  fundingMs: 60_000,
  rewardsMs: 5 * 60_000,
  rewardMs: 5 * 60_000,
  projectInfoMs: 10 * 60_000,
};

/**
 * The slice of the one {@link Logger} port the core uses. Only secret-free details
 * are passed (error names and codes, ids).
 */
export type CoreLogger = Pick<Logger, 'warn' | 'error'>;

/**
 * A process-wide cause of trouble that `/status` shows beside the project's own, the
 * same ones `/healthz` names. `detail` is the operator's secret-free technical line.
 */
export type OperationalNote =
  | { readonly cause: 'store-failing'; readonly detail: string }
  | { readonly cause: 'store-emptied'; readonly detail: string }
  | { readonly cause: 'api-drift'; readonly detail: string }
  | { readonly cause: 'polling-ceiling'; readonly detail: string };

/** Everything {@link createCommandCore} needs, injected. */
export interface CommandCoreDeps {
  readonly readModel: ProjectReadModel;
  readonly subscriptions: SubscriptionStore;
  readonly settings: SettingsStore;
  readonly clock: Clock;
  /** Shown by /status. */
  readonly version: string;
  /** Used when neither the channel nor the workspace has a language set. Default 'en'. */
  readonly defaultLocale?: Locale;
  /**
   * The IANA zone times are shown in where a channel chose none with its quiet hours: the
   * configured digest time zone (the projects' day). Default 'UTC'.
   */
  readonly timeZone?: string;
  /** The project a command uses when none is given (before the single-project fallbacks). */
  readonly defaultProject?: string;
  /** Renders today's digest of a project (src/digest); /digest says "not configured" without it. */
  readonly digestPreview?: (project: string, locale: Locale) => Promise<NeutralMessage>;
  /** Renders a project's funding chart now (src/digest), as the digest attaches it; /chart needs it. */
  readonly fundingChart?: (project: string, locale: Locale) => Promise<NeutralMessage>;
  readonly freshness?: Partial<Freshness>;
  /** Read by every /status (no I/O): the store failing, the API description changed. */
  readonly operationalNotes?: () => readonly OperationalNote[];
  /**
   * Whether the bot can post in a channel, asked by /subscribe before it stores
   * anything. Every chat adapter provides one (the composition root routes by
   * platform); without it (the console) /subscribe cannot check and trusts the channel.
   */
  readonly channelAccess?: ChannelAccess;
  /**
   * Each channel's pacing and quiet hours, set by /pacing and /quiet and shown by
   * /subscriptions: the same store the delivery pipeline reads. Without it those two
   * commands say pacing is not set up, and /subscriptions lists kinds only.
   */
  readonly pacing?: PacingSettings;
  /** The daily-thread setting /thread changes (the same store the delivery pipeline reads). */
  readonly dailyThreads?: DailyThreadSettings;
  /** The low-stock threshold /lowstock sets (the same store the delivery pipeline reads). */
  readonly lowStock?: LowStockSettings;
  /** The campaign's end (/deadline) and the roll-call (/rollcall): the same store the schedules in src/digest read. */
  readonly campaign?: CampaignSettings;
  /** The goal-pace alerts' window and minimum, as configured, for /deadline's answer. */
  readonly goalPace?: GoalPaceOptions;
  /** Channels the bot cannot post in (written by the delivery pipeline): /subscriptions and /status say so. */
  readonly channelAccessStates?: ChannelAccessStates;
  /**
   * A channel's last notices with where each stands (the delivery pipeline's trace, store reads only): /notices,
   * /why and the App Home's section read it. Without it they say the trace is not set up.
   */
  /** Each channel's pings and filters, set by /ping and /filter (the same store the delivery pipeline reads). */
  readonly noticeRules?: NoticeRulesSettings;
  readonly recentNotices?: (channel: ChannelRef, limit: number) => Promise<readonly TracedNotice[]>;
  readonly logger?: CoreLogger;
  /** Projects connected from chat (hosted fundbot); without it /connect says hosting is off. */
  readonly hosted?: HostedProjects;
}
