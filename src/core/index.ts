/**
 * The platform-neutral core of fundbot: commands, notices, i18n, the
 * subscription and settings stores and the notice router. Adapters import
 * from here; nothing here imports a chat library.
 */

export { type Logger, silentLogger } from '../domain/logger.js';
export {
  displayName,
  htmlToPlainText,
  normalizeWhitespace,
  safeHttpUrl,
  shorten,
  singleLine,
} from '../domain/text.js';
export { limits } from '../domain/text-limits.js';
export { channelKey, workspaceKey } from './channel-key.js';
export { ChannelUnavailableError } from './channel-unavailable-error.js';
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
export {
  type Claims,
  createDeliveryLedger,
  type DeliveryKey,
  type DeliveryLedger,
  type DeliveryLedgerOptions,
  type DeliveryRecord,
  type DeliveryState,
  defaultDeliveryClaimTtlMs,
  defaultDeliveryRecordTtlMs,
} from './delivery-ledger.js';
export { DeliveryNotPostedError } from './delivery-not-posted-error.js';
export * from './format.js';
export type { Catalog } from './i18n/index.js';
export { catalogFor, isLocale, localeFromTag, locales } from './i18n/index.js';
export { assertTimeZone, formatTime, type LocalTime, localTime, parseTimeOfDay } from './local-time.js';
export type { MessageField, MessageImage, MessageLink, NeutralMessage, ProgressBar } from './message.js';
export {
  createNoticeRouter,
  NoticeDeliveryError,
  type NoticeRouter,
  type NoticeRouterOptions,
  noticeIdempotencyKey,
  noticeLedgerPrefix,
} from './notice-router.js';
export { estimatePace, type Pace } from './pace.js';
export { type BatchRecord, batchId } from './pacing/batch-record.js';
export {
  createDailyThreadSettings,
  type DailyThreadSettings,
} from './pacing/daily-thread-settings.js';
export { createPacedRouter, type PacedRouter, type PacedRouterOptions } from './pacing/paced-router.js';
export {
  autoBatchIntervalMs,
  autoLiveLimit,
  type ChannelPacing,
  createPacingSettings,
  defaultPacing,
  type PacingMode,
  type PacingSettings,
  pacingModes,
} from './pacing/pacing-settings.js';
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
  ChannelPoster,
  ChannelRef,
  EngineStatus,
  FeedStatus,
  HistoryPoint,
  PostReceipt,
  ProjectReadModel,
  Subscription,
  SubscriptionStore,
  ThreadTarget,
  WatchedProject,
} from './ports.js';
export { classifyReadFailure, type ReadFailure } from './read-failure.js';
export { renderNotice } from './render-notice.js';
export {
  createSettingsStore,
  type LocaleSettings,
  type SettingScope,
  type SettingsStore,
} from './settings-store.js';
export {
  channelRefSchema,
  createSubscriptionStore,
  subscriptionIndexKey,
  subscriptionSchema,
} from './subscription-store.js';
