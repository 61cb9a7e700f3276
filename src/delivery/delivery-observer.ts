import type { ChannelAccessProblem, ChannelRef } from '../domain/channels.js';

/**
 * What the pipeline tells the outside world (metrics, the benchmark, tests) about
 * deliveries, as they happen. Every method is optional and must not throw.
 */
export interface DeliveryObserver {
  /** A message landed in the channel (`latencyMs`: from when it happened on the platform). */
  posted?(info: {
    readonly channel: ChannelRef;
    readonly kind: string;
    readonly id: string;
    readonly latencyMs: number;
    /** How long it waited in its lane behind other deliveries' faults (Retry-After pauses excluded). */
    readonly waitedBehindFaultsMs: number;
    /** Posted after a doubt or a failure, later than notices behind it. */
    readonly late: boolean;
  }): void;
  /** A post failed: `doubt` (it may have landed), `refused` (it did not), `rate-limited`. */
  failed?(info: {
    readonly channel: ChannelRef;
    readonly kind: string;
    /** The delivery's id (absent for a stall, which is the lane's, not one delivery's). */
    readonly id?: string;
    readonly how: 'doubt' | 'refused' | 'rate-limited' | 'stalled';
    readonly error: string;
  }): void;
  /** A delivery in doubt was decided: it had landed (`found`) or it was posted again (`absent`). */
  doubtResolved?(info: {
    readonly channel: ChannelRef;
    readonly id: string;
    readonly outcome: 'found' | 'absent';
    readonly doubtMs: number;
  }): void;
  /** The platform's event showed one of our posts (a sighting: witness.ts). */
  sighted?(info: { readonly channel: ChannelRef; readonly messageId: string }): void;
  /**
   * An extra copy of a delivery was found (a post the platform landed late, beside its repeat) and removed,
   * `how`: an event of the platform showed it, or a look did.
   */
  extraCopyRemoved?(info: {
    readonly channel: ChannelRef;
    readonly id: string;
    readonly messageId: string;
    readonly how: 'sighted' | 'looked';
  }): void;
  /** The bot cannot post in a channel (or can again). */
  access?(info: { readonly channel: ChannelRef; readonly problem: ChannelAccessProblem | undefined }): void;
  /** A delivery was given up after failing for too long (also logged as an error). */
  abandoned?(info: { readonly channel: ChannelRef; readonly kind: string; readonly id: string }): void;
}
