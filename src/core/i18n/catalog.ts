/**
 * The shape of a message catalog. Every locale implements the whole interface,
 * so a key missing in German is a compile error, not an English fallback at run time.
 *
 * Entries that take values are functions; values are already formatted (money,
 * dates) or already bounded plain text (names, titles): a catalog never formats
 * or trusts raw user text itself.
 */
import type { CampaignCatalog } from './campaign-catalog.js';
import type { HostedCatalog } from './hosted-catalog.js';
import type { NoteCatalog } from './note-catalog.js';
import type { NoticeRulesCatalog } from './notice-rules-catalog.js';
import type { RewardStockCatalog } from './reward-stock-catalog.js';
import type { TraceCatalog } from './trace-catalog.js';

export interface Catalog {
  readonly common: {
    readonly andMore: (shown: string, more: number) => string;
    readonly list: (items: readonly string[]) => string;
    readonly updatedAgo: (age: string) => string;
    readonly staleFigures: (age: string, reason: string) => string;
    readonly unlimited: string;
    readonly soldOut: string;
    readonly left: (remaining: string, total: string) => string;
    readonly locked: string;
    readonly supportersOnly: string;
    readonly onlyYou: string;
    readonly none: string;
    /** Stands for a person whose name shows nothing (only invisible or blank characters). */
    readonly someone: string;
    /** Stands for a blog post or reward title that shows nothing. */
    readonly untitled: string;
  };
  readonly units: {
    readonly seconds: (n: number) => string;
    readonly minutes: (n: number) => string;
    readonly hours: (n: number) => string;
    readonly days: (n: number) => string;
    readonly moreThanAYear: string;
  };
  readonly projectStatus: {
    readonly new: string;
    readonly started: string;
    readonly active: string;
    readonly successful: string;
    readonly payoff: string;
    /** A status the spec does not name, in quotes: never a second "Status:" inside a status line. */
    readonly unknown: (raw: string) => string;
  };
  readonly funding: {
    readonly fieldFunding: string;
    readonly fieldSupporters: string;
    readonly fieldModel: string;
    readonly fieldStatus: string;
    readonly fieldPace: string;
    readonly amountOfGoal: (funding: string, goal: string) => string;
    readonly noGoal: (funding: string) => string;
    readonly supporters: (n: number, formatted: string) => string;
    readonly allOrNothingReached: string;
    readonly allOrNothingMissing: (missing: string) => string;
    readonly flexible: string;
    readonly paceGoal: (duration: string, perDay: string) => string;
    readonly paceMilestone: (percent: string, duration: string, perDay: string) => string;
    readonly paceRateOnly: (perDay: string) => string;
    readonly paceNone: (hours: number) => string;
    readonly paceUnknown: string;
    readonly supportLink: string;
  };
  readonly rewards: {
    readonly title: (project: string) => string;
    readonly noneVisible: string;
    readonly lockedMissing: (missing: string) => string;
    readonly lockedUntilGoal: string;
    /** `command` is how /reward is typed on the platform (`/fundbot reward` on Slack). */
    readonly andMore: (n: number, command: string) => string;
    readonly idLine: (id: number) => string;
    readonly fieldPrice: string;
    readonly fieldStock: string;
    readonly fieldState: string;
    readonly available: string;
    readonly freeText: string;
    readonly openReward: string;
    /** `command` is how /rewards is typed on the platform. */
    readonly notFound: (id: number, project: string, command: string) => string;
  };
  readonly supporters: {
    readonly title: (project: string) => string;
    readonly none: string;
    readonly line: (name: string, age: string) => string;
  };
  readonly blog: {
    readonly title: (project: string) => string;
    readonly none: string;
    readonly story: string;
    readonly text: string;
    readonly meta: (type: string, date: string, minutes: number) => string;
    readonly teaserUnavailable: string;
  };
  readonly subscriptions: {
    readonly subscribed: (project: string, kinds: string) => string;
    /** The project's supporters were not read yet (its key refused, the feed off, the poller slow). */
    readonly notReadYet: (project: string, status: string) => string;
    readonly unsubscribed: (project: string, kinds: string) => string;
    readonly remaining: (kinds: string) => string;
    readonly nothingLeft: string;
    readonly notSubscribed: (project: string) => string;
    readonly title: string;
    /** `command` is how /subscribe is typed on the platform. */
    readonly none: (command: string) => string;
    readonly line: (project: string, kinds: string) => string;
    readonly invalidKinds: (invalid: string, valid: string) => string;
    /** /subscribe refused: the bot is not in the channel (Slack: how to invite it). */
    readonly notMember: (platform: 'discord' | 'slack' | 'console') => string;
    /** /subscribe refused: the bot lacks permissions here; `missing` names them when known. */
    readonly noPermission: (platform: 'discord' | 'slack' | 'console', missing: string | undefined) => string;
    readonly archived: string;
    readonly accessUnknown: string;
    /** Discord's names of the permissions, as its settings show them. */
    readonly permissionNames: Readonly<
      Record<
        'view-channel' | 'send-messages' | 'send-messages-in-threads' | 'embed-links' | 'attach-files',
        string
      >
    >;
  };
  /** A channel the bot cannot post in (shown by /subscriptions and /status while it lasts). */
  readonly access: {
    /** What is wrong and what to do, one short sentence. */
    readonly problem: (
      problem: 'not-member' | 'no-permission' | 'archived' | 'gone' | 'token-revoked' | 'unknown',
      platform: 'discord' | 'slack' | 'console',
      missing: string | undefined,
    ) => string;
    /** "⚠️ fundbot cannot post here since 14:05 UTC: <problem> Notices are held…" */
    readonly cannotPost: (problem: string, since: string) => string;
  };
  /** /pacing and /quiet, and the pacing lines of /subscriptions. */
  readonly pacing: {
    /** A mode as /subscriptions shows it; `minutes` is the batch interval of `batched`. */
    readonly mode: (mode: 'auto' | 'live' | 'batched' | 'hourly' | 'digest', minutes: number) => string;
    /** What the mode does, said once when it is set. */
    readonly explain: (mode: 'auto' | 'live' | 'batched' | 'hourly' | 'digest', minutes: string) => string;
    readonly set: (kinds: string, mode: string) => string;
    /** "supporters (auto)" in /subscriptions. */
    readonly kindWithMode: (kind: string, mode: string) => string;
    readonly quietSet: (range: string) => string;
    readonly quietCleared: string;
    readonly quietLine: (range: string) => string;
    readonly quietNone: string;
    /** `usage` is how to type /pacing here, with an example. */
    readonly minutesOnlyForBatched: (given: string, usage: string) => string;
    readonly invalidMinutes: (given: string, min: string, max: string) => string;
    readonly invalidHours: (given: string, example: string) => string;
    readonly invalidTimeZone: (given: string, example: string) => string;
    readonly emptyQuiet: (example: string) => string;
    readonly notConfigured: string;
  };
  readonly language: {
    readonly setChannel: string;
    readonly setWorkspace: string;
    readonly invalidLocale: (given: string, valid: string) => string;
    readonly invalidScope: (given: string) => string;
  };
  readonly status: {
    readonly title: (project: string) => string;
    readonly feedOk: (age: string, interval: string) => string;
    readonly feedNever: string;
    /** A poll time known to a window only (the fleet's shared status): "within the last 15 minutes". */
    readonly within: (window: string) => string;
    readonly feedDisabled: (reason: string) => string;
    readonly fieldBudget: string;
    readonly budget: (remaining: string, limit: string) => string;
    readonly budgetReset: (at: string) => string;
    readonly budgetUnknown: string;
    readonly fieldErrors: string;
    readonly noErrors: string;
    /** Heading of the causes `/healthz` also names: a paused project, a failing store, API drift. */
    readonly fieldOperation: string;
    /** The API rejected the project's key: polling is paused until an operator replaces it. */
    /** `fix`: who replaces the key, the operator (configured) or a workspace admin (connected from chat). */
    readonly paused: (since: string, reason: string, fix: 'operator' | 'connect') => string;
    /** The store does not answer; `detail` is the operator's technical line (English). */
    readonly storeFailing: (detail: string) => string;
    /** The store was found empty while its marker says it held data (the detail says what to do). */
    readonly storeEmptied: (detail: string) => string;
    /** The platform's API description changed; `detail` names the changes (English). */
    readonly apiDrift: (detail: string) => string;
    /** The process-wide polling ceiling, not the key, sets the pace; `detail` gives the figures (English). */
    readonly pollingCeiling: (detail: string) => string;
    readonly version: (version: string) => string;
    readonly feedNames: Readonly<Record<'project' | 'incentives' | 'fundings' | 'wall' | 'blog', string>>;
  };
  readonly help: {
    readonly title: string;
    readonly adminOnly: string;
    readonly footer: string;
  };
  readonly errors: {
    readonly title: string;
    readonly needAdmin: (platform: 'discord' | 'slack' | 'console') => string;
    readonly unknownProject: (given: string, watched: string) => string;
    readonly noWatchedProjects: string;
    readonly whichProject: (choices: string) => string;
    readonly platformDown: string;
    readonly rateLimited: string;
    readonly notPermitted: string;
    /** A feed the engine switched off because the key lacks `scope` (feed: fundings, wall, blog, project, incentives). */
    readonly feedOff: (feed: string, scope: string) => string;
    /** The engine paused the project because the platform rejects its key. */
    readonly projectPaused: string;
    readonly projectNotFound: (project: string) => string;
    readonly digestNotConfigured: string;
    readonly chartNotConfigured: string;
    /** `help` is how /help is typed on the platform. */
    readonly unknownCommand: (name: string, help: string) => string;
    /** Slack: a command of an old manifest (`/funding`); `usage` is the `/fundbot …` to type instead. */
    readonly useSlackCommand: (typed: string, usage: string) => string;
    /** Slack: `/fundbot <word>` where the word is no subcommand; `list` names them all, `help` is how to ask for help. */
    readonly unknownSubcommand: (word: string, list: string, help: string) => string;
    readonly internal: string;
    /** The store failed or did not answer while the command ran. */
    readonly storeDown: string;
    /** Slack OAuth: a command from a workspace with no installation (never installed, or uninstalled). */
    readonly notInstalled: (installUrl: string | undefined) => string;
    readonly missingOption: (option: string, usage: string) => string;
    readonly invalidInteger: (option: string, given: string) => string;
    readonly invalidBoolean: (option: string, given: string) => string;
    readonly invalidChoice: (option: string, given: string, valid: string) => string;
    readonly tooManyArguments: (extra: string, usage: string) => string;
    readonly unterminatedQuote: string;
    readonly notACommand: string;
  };
  readonly notices: {
    readonly supporter: (name: string) => string;
    /** The project's supporter count read with this notice (never a list position). */
    readonly supporterCountNow: (n: string) => string;
    readonly total: (amount: string) => string;
    readonly supporterBurst: (n: number, formatted: string) => string;
    readonly wallPost: (author: string) => string;
    readonly wallPostBurst: (n: number, formatted: string) => string;
    readonly wallPostBurstBy: (authors: string) => string;
    readonly blogPost: (title: string) => string;
    readonly readPost: string;
    readonly fieldType: string;
    readonly milestone: (percent: string) => string;
    readonly goalReached: string;
    readonly goalReachedText: string;
    readonly rewardSoldOut: (title: string) => string;
    readonly rewardUnlocked: (title: string) => string;
    readonly rewardPrice: (price: string) => string;
    readonly projectStatus: (to: string) => string;
    readonly projectStatusChange: (from: string, to: string) => string;
    readonly watching: (title: string) => string;
    readonly footer: (project: string) => string;
  };
  /** The engine's notes (domain/engine-notes.ts): /status, stale figures, the digest. */
  readonly notes: NoteCatalog;
  /** Hosted fundbot: projects connected from chat. */
  readonly hosted: HostedCatalog;
  readonly rewardStock: RewardStockCatalog;
  /** Issue 32, items 4 and 5: /deadline, the goal-pace alerts, /rollcall and the roll-call. */
  readonly campaign: CampaignCatalog;
  /** The delivery trace: /notices, /why (issue 32, item 2). */
  readonly trace: TraceCatalog;
  /** Pings and filters: /ping, /filter (issue 32, item 6). */
  readonly noticeRules: NoticeRulesCatalog;
}
