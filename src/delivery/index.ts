/**
 * The one way from a known event to a channel: placement (subscriptions, pacing,
 * quiet hours, thread) -> claim -> render -> post -> confirm. Adapters register
 * their posters with it; the engine's outbox and the digest hand it what to post.
 */
export { ChannelUnavailableError } from './channel-unavailable-error.js';
export {
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
export {
  createNoticeRouter,
  NoticeDeliveryError,
  type NoticeRouter,
  type NoticeRouterOptions,
  noticeIdempotencyKey,
  noticeLedgerPrefix,
} from './notice-router.js';
export { createPacedRouter, type PacedRouter, type PacedRouterOptions } from './paced-router.js';
export { type BatchRecord, batchId } from './pacing/batch-record.js';
export type { ChannelPoster, PostReceipt, ThreadTarget } from './ports.js';
