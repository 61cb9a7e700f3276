/**
 * The one way from a known event to a channel: placement (subscriptions, pacing,
 * quiet hours, thread) -> claim -> render -> post -> confirm. Adapters register
 * their posters with it; the engine's outbox and the digest hand it what to post.
 */
export { ChannelUnavailableError } from './channel-unavailable-error.js';
export {
  createDelivery,
  type Delivery,
  type DeliveryOptions,
  type DeliveryStatus,
  type ScheduledPost,
} from './create-delivery.js';
export { forgetDeliveriesNaming } from './deliveries-store.js';
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
export type { DeliveryObserver } from './delivery-observer.js';
// Issue 32 item 3c: the reward watch's direct messages.
export { DirectMessageRefusedError, type DirectMessenger } from './direct-messenger.js';
export type { ItemOutcome } from './lane-item.js';
export { idempotencyKeyOf } from './lane-item.js';
export { type BatchRecord, batchId } from './pacing/batch-record.js';
export type {
  ChannelPoster,
  DoubtSupport,
  LookBudget,
  LookPage,
  LookRequest,
  PostReceipt,
  Sighting,
  ThreadTarget,
} from './ports.js';
export { createRewardWatchDms, type RewardWatchDms } from './reward-watch-dms.js';
