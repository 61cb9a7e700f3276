import { channelKey } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { DeliveryKey, DeliveryRecord } from './delivery-ledger.js';
import type { ThreadTarget } from './ports.js';

/** How one delivery to one channel ended: what the event's tracker and the observer are told. */
export type ItemOutcome =
  | { readonly kind: 'posted'; readonly messageId: string | undefined }
  /** Kept in a batch or a catch-up: done for the outbox, posted later with the batch. */
  | { readonly kind: 'held' }
  /** The bot cannot post in the channel and the item cannot be held (a digest): its owner decides. */
  | { readonly kind: 'refused' }
  /** Given up after failing for too long (logged as an error, counted). */
  | { readonly kind: 'abandoned' }
  /** No poster for the platform runs here: nothing can be done (logged). */
  | { readonly kind: 'skipped' };

/**
 * One delivery waiting in a channel's lane: a notice, a batch, a thread parent, a
 * digest. Rendered only when it is posted (a late repeat says when it happened).
 */
export interface LaneItem {
  readonly type: 'post';
  readonly key: DeliveryKey;
  /** What the platform dedupes or the look recognises: `<id>@<channel>`. */
  readonly idempotencyKey: string;
  /** When it happened on the platform (epoch ms): latency, and the time a late repeat shows. */
  readonly occurredAt: number;
  /** The kind of notice for metrics ('supporters', 'digest', ...). */
  readonly kind: string;
  /** Renders the message; `late`: it is posted after later notices, so it says when it happened. */
  render(late: boolean): Promise<NeutralMessage>;
  /** Where it goes when not the channel itself (the daily thread; resolved right before posting). */
  target?(): Promise<ThreadTarget | undefined>;
  /** The ledger record read when it was placed (undefined: none yet). */
  record: DeliveryRecord | undefined;
  /** Epoch ms after which it is given up if it has not gone out (a day's digest). */
  readonly giveUpAt?: number;
  /**
   * In doubt after the platform answered (a 5xx): nothing of this attempt lands after
   * this time (epoch ms). Unknown after a timeout, a reset or a restart.
   */
  landsBy?: number;
  /** Attempts of this process that ended in doubt: a repeat after a look found nothing backs off by it. */
  doubts?: number;
  /**
   * When the first attempt that may have landed began (a doubt of this process or one left by an earlier
   * one): a post after it may stand beside a late landing of it, which is looked for and removed.
   */
  firstDoubtAt?: number;
  /** Posted again after a doubt (at least once): an earlier attempt may still land beside it. */
  reposted?: boolean;
  /**
   * The bot cannot post in the channel: keep it for the catch-up (held once `stored`
   * resolves: the batch's write gathers a few notices). Absent: it is 'refused'.
   */
  hold?(): Promise<{ readonly stored: Promise<void> }>;
  /** Told once, when the delivery is final for this channel. */
  settle(outcome: ItemOutcome): void;
}

/**
 * An edit of a message already posted (a correction, a batch with a name taken back,
 * a daily thread's running total): idempotent, so it needs no ledger; it runs in the
 * channel's lane so it never overtakes the post it edits.
 */
export interface EditTask {
  readonly type: 'edit';
  /** For logs: what is edited. */
  readonly label: string;
  run(): Promise<void>;
  /** Told once: `done` false when it was given up after its retries. */
  settle(done: boolean): void;
}

export type LaneTask = LaneItem | EditTask;

/** The idempotency key of one delivery in one channel (adapters hash it to their size limit). */
export function idempotencyKeyOf(key: DeliveryKey): string {
  return `${key.id}@${channelKey(key.channel)}`;
}
