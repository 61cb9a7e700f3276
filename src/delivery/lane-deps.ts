import type { ChannelRef } from '../domain/channels.js';
import type { WarningLogger } from '../domain/logger.js';
import type { BackoffPolicy } from '../lib/backoff.js';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { ChannelUnavailableError } from './channel-unavailable-error.js';
import type { CopyWatchStore } from './copy-watch-store.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import type { DeliveryObserver } from './delivery-observer.js';
import type { DoubtResolver } from './doubt-resolver.js';
import type { ChannelPoster } from './ports.js';
import type { Wakeups } from './wakeups.js';
import type { Witness } from './witness.js';

/** A refused post or a failed store step: 5 s doubling to 5 minutes, spread (the one backoff helper). */
export const laneRetryBackoff: BackoffPolicy = { baseMs: 5_000, maxMs: 5 * 60_000, jitter: 'spread' };

export interface LaneDeps {
  readonly clock: Clock;
  readonly random: Random;
  readonly ledger: DeliveryLedger;
  readonly resolver: DoubtResolver;
  readonly wakeups: Wakeups;
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  readonly observer: DeliveryObserver;
  readonly logger: WarningLogger & { info?: (details: object, message: string) => void };
  /** The platform's events for our own messages (witness.ts). */
  readonly witness: Witness;
  /** Watches for late copies, kept across restarts (copy-watch-store.ts). */
  readonly copyWatches: CopyWatchStore;
  /** The platform refused the channel for good: record it (the pipeline holds its notices from now on). */
  readonly cannotPost: (channel: ChannelRef, error: ChannelUnavailableError) => Promise<void>;
  /** Counts work in flight (tests and shutdown wait for it). */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
  /** How long a post may hold the lane before the next one goes (it goes on in the background). */
  readonly stallMs: number;
  /** A delivery failing longer than this is given up (an error in the log). */
  readonly giveUpAfterMs: number;
}
