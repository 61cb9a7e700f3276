/**
 * The platform-neutral core of fundbot: commands, notices, i18n, the
 * subscription and settings stores. Adapters import
 * from here; nothing here imports a chat library.
 */

export type {
  CommandContext,
  CommandCore,
  CommandInvocation,
  Locale,
  OptionValue,
} from './command-core.js';
export type { CommandCoreDeps, CoreLogger, Freshness, OperationalNote } from './command-core-deps.js';
export { defaultFreshness } from './command-core-deps.js';
export { createCommandCore, privateError } from './create-command-core.js';
export * from './format.js';
export {
  type ConnectOutcome,
  type ConnectRefusal,
  type HostedProjectInfo,
  type HostedProjects,
  projectVisibleTo,
  type WorkspaceRef,
} from './hosted-projects.js';
export type { Catalog } from './i18n/index.js';
export { catalogFor, isLocale, localeFromTag, locales } from './i18n/index.js';
export { assertTimeZone, type LocalTime, localTime, parseTimeOfDay, startOfLocalDate } from './local-time.js';
export type { MessageField, MessageImage, MessageLink, NeutralMessage, ProgressBar } from './message.js';
export { noteText } from './note-text.js';
export {
  type PaceAlertInput,
  type RollCallInput,
  renderPaceAlert,
  renderRollCall,
} from './notices/campaign-notices.js';
export { dailyThreadTexts } from './notices/daily-thread-texts.js';
export { splitNames } from './notices/name-list.js';
export { pacingTexts } from './notices/pacing-texts.js';
export { renderNotice } from './notices/render-notice.js';
export { rewardWatchMessage } from './notices/reward-watch-message.js';
export {
  commandInvocationText,
  commandUsage,
  type ParseError,
  type ParseResult,
  parseCommandArguments,
  parseCommandLine,
  parseSubcommandText,
  tokenize,
} from './parse-command-text.js';
export { describeParseError, parseErrorMessage } from './parse-error-message.js';
export type {
  Cached,
  ChannelAccess,
  ChannelAccessProblem,
  ChannelAccessResult,
  ChannelPermission,
  ChannelRef,
  EngineStatus,
  FeedStatus,
  HistoryPoint,
  ProjectReadModel,
  Subscription,
  SubscriptionStore,
  WatchedProject,
} from './ports.js';
export { classifyReadFailure } from './read-failure.js';
export {
  type CampaignDeadline,
  type CampaignSettings,
  createCampaignSettings,
  type RollCallCadence,
  type RollCallSetting,
} from './settings/campaign-settings.js';
export {
  type CannotPost,
  type ChannelAccessStates,
  createChannelAccessStates,
} from './settings/channel-access-states.js';
export { forgetChannelSettings } from './settings/channel-settings-keys.js';
export {
  createDailyThreadSettings,
  type DailyThreadSettings,
} from './settings/daily-thread-settings.js';
export { createLowStockSettings, type LowStockSettings } from './settings/low-stock-settings.js';
export { createNoticeRulesSettings, type NoticeRulesSettings } from './settings/notice-rules-settings.js';
export {
  type ChannelPacing,
  createPacingSettings,
  defaultPacing,
  type PacingMode,
  type PacingSettings,
  pacingModes,
  type QuietHours,
} from './settings/pacing-settings.js';
export { createRewardWatchStore, type RewardWatchStore } from './settings/reward-watch-store.js';
export {
  createSettingsStore,
  type LocaleSettings,
  type SettingScope,
  type SettingsStore,
} from './settings/settings-store.js';
export {
  channelRefSchema,
  createSubscriptionStore,
  forgetSubscriptionKeysNaming,
  subscriptionIndexKey,
  subscriptionSchema,
} from './subscription-store.js';
export * from './time-format.js';
