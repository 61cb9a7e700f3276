import { z } from 'zod';
import { type ChannelRef, channelKey } from '../domain/channels.js';
import { heldNoticeMs } from '../domain/held-notices.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Claims, memoryClaims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import type { ThreadTarget } from './ports.js';

/**
 * Where one delivery stands. `attempting` is written BEFORE the request goes out:
 * a record still `attempting` when nobody is posting (crash, timeout, reset, 5xx)
 * means the message may or may not be in the channel: it is IN DOUBT, and only a
 * look at the channel (or a repeat the platform dedupes) may decide.
 */
export type DeliveryState =
  /** A request was (or was about to be) sent and nothing confirmed it. */
  | 'attempting'
  /** The platform confirmed the message (`messageId` when it named it). */
  | 'posted'
  /** The platform's answer proved nothing was posted; a retry may post freely. */
  | 'failing'
  /** Kept in a batch (`batchId`): pacing, quiet hours, or a channel the bot cannot post in. */
  | 'held'
  /** No poster for the channel's platform runs here (written before held states existed; final). */
  | 'unavailable'
  /** Failed for too long: given up for this channel (logged as an error), final. */
  | 'abandoned';

export interface DeliveryRecord {
  readonly state: DeliveryState;
  /** Epoch ms of the last change. */
  readonly at: number;
  /** Epoch ms the latest attempt began (the lower bound of where a doubtful message can be). */
  readonly attemptStartedAt?: number;
  /** Where the latest attempt went (a reply in a thread): a look reads that thread. */
  readonly thread?: ThreadTarget;
  /** The platform's id of the message: Slack `ts`, Discord message id. */
  readonly messageId?: string;
  /** Epoch ms of the first failure of this delivery, kept until it is posted or given up. */
  readonly failingSince?: number;
  /** For `held`: the batch that carries it. */
  readonly batchId?: string;
  /**
   * For `attempting`: the platform answered the attempt (a 5xx), so whatever it did with the post it did before
   * answering, and the post, if it landed, stands by then. Kept so the process that decides the doubt after a
   * restart looks as soon as the answering one would have, not after the late-landing span (real-bot seed 3).
   */
  readonly landsBy?: number;
}

/** Which delivery: the idempotency id (an event id, a batch id, a digest id) in one channel. */
export interface DeliveryKey {
  readonly id: string;
  readonly channel: ChannelRef;
}

/**
 * 30 s: longer than one post with its timeout takes (10-15 s), short enough that a
 * replica killed mid-post blocks its successor for seconds, not minutes.
 */
export const defaultDeliveryClaimTtlMs = 30_000;

/**
 * As long as a notice is held ({@link heldNoticeMs}, 14 days): longer than any delivery is retried or held, so a
 * record outlives every retry and every held notice.
 */
export const defaultDeliveryRecordTtlMs = heldNoticeMs;

/**
 * The durable record of every (id, channel) delivery, shared by all replicas through
 * the injected store.
 *
 * Cost: one store read per delivery, two writes per post (the attempt, then the
 * confirmation), one for a held notice; a record of about 150 bytes per (id, channel),
 * kept `ttlMs` through the store's own TTL (SQLite's expired rows are swept hourly).
 */
export interface DeliveryLedger {
  /**
   * Claims the delivery before posting: of two replicas delivering the same (id,
   * channel) at once (a lease changing hands), one gets true and the other waits.
   * On Redis one `SET NX PX` (~80 B until released or expired); in one process a map.
   */
  claim(key: DeliveryKey): Promise<boolean>;
  /** Gives the claim back once the record says what happened. */
  release(key: DeliveryKey): Promise<void>;
  /** Whether the claims are shared with other processes (then a record read before claiming may be stale). */
  readonly claimsShared: boolean;
  get(key: DeliveryKey): Promise<DeliveryRecord | undefined>;
  /** Before the request: marks the delivery in doubt until confirmed or cleared. */
  beginAttempt(
    key: DeliveryKey,
    previous: DeliveryRecord | undefined,
    thread?: ThreadTarget,
  ): Promise<DeliveryRecord>;
  /** The platform confirmed the message (or a look found it). */
  confirm(key: DeliveryKey, messageId: string | undefined): Promise<DeliveryRecord>;
  /** The platform answered the attempt without proving anything (a 5xx): still in doubt, landed by `landsBy` if at all. */
  answered(key: DeliveryKey, attempt: DeliveryRecord, landsBy: number): Promise<DeliveryRecord>;
  /** The platform's answer proved nothing was posted: the attempt is cleared, not in doubt. */
  clearAttempt(key: DeliveryKey, previous: DeliveryRecord | undefined): Promise<DeliveryRecord>;
  /** Kept in a batch: written BEFORE the batch record, so a crash between the two is found again. */
  hold(key: DeliveryKey, batchId: string): Promise<DeliveryRecord>;
  /** Given up for good (logged by the caller). */
  abandon(key: DeliveryKey): Promise<DeliveryRecord>;
}

const threadSchema = z.object({ parentMessageId: z.string(), threadId: z.string().optional() });

const recordSchema = z.object({
  state: z.enum(['attempting', 'posted', 'failing', 'held', 'unavailable', 'abandoned']),
  at: z.number(),
  attemptStartedAt: z.number().optional(),
  thread: threadSchema.optional(),
  messageId: z.string().optional(),
  failingSince: z.number().optional(),
  batchId: z.string().optional(),
  landsBy: z.number().optional(),
}) as unknown as z.ZodType<DeliveryRecord>;

export interface DeliveryLedgerOptions {
  readonly clock?: Clock;
  readonly ttlMs?: number;
  /** Key prefix inside the store. Default `delivery/`. */
  readonly prefix?: string;
  /** Claims shared by the replicas. Default: an in-process map (one process). */
  readonly claims?: Claims;
  /** Whether `claims` are shared with other processes (Redis). Default: true when claims are given. */
  readonly claimsShared?: boolean;
  /** How long an unreleased claim holds (its owner crashed mid-post). Default 30 s. */
  readonly claimTtlMs?: number;
}

/** Final states: nothing more is posted for the delivery. */
export function isSettled(record: DeliveryRecord | undefined): boolean {
  return (
    record !== undefined &&
    (record.state === 'posted' || record.state === 'unavailable' || record.state === 'abandoned')
  );
}

/** A store-backed {@link DeliveryLedger}. */
export function createDeliveryLedger(
  store: KeyValueStore,
  options: DeliveryLedgerOptions = {},
): DeliveryLedger {
  const clock = options.clock ?? systemClock;
  const ttl = options.ttlMs ?? defaultDeliveryRecordTtlMs;
  const prefix = options.prefix ?? 'delivery/';
  const storeKey = ({ id, channel }: DeliveryKey) =>
    `${prefix}${encodeURIComponent(id)}/${channelKey(channel)}`;
  const claims = options.claims ?? memoryClaims(clock, 'this-process');
  const claimTtlMs = options.claimTtlMs ?? defaultDeliveryClaimTtlMs;
  const write = async (key: DeliveryKey, record: DeliveryRecord) => {
    await store.set(storeKey(key), dropUndefined(record), ttl);
    return record;
  };
  /** The first failure of a delivery: kept across attempts until it is posted or given up. */
  const firstFailure = (previous: DeliveryRecord | undefined, now: number | undefined) =>
    previous?.failingSince ?? (previous?.state === 'attempting' ? previous.attemptStartedAt : now);

  return {
    claim: (key) => claims.claimOnce(storeKey(key), claimTtlMs),
    release: (key) => claims.giveBack(storeKey(key)),
    claimsShared: options.claimsShared ?? options.claims !== undefined,
    get: (key) => store.get(storeKey(key), recordSchema),
    beginAttempt: (key, previous, thread) => {
      const now = clock.now();
      const failingSince = firstFailure(previous, undefined);
      return write(key, {
        state: 'attempting',
        at: now,
        attemptStartedAt: now,
        ...(thread ? { thread } : {}),
        ...(failingSince !== undefined ? { failingSince } : {}),
      });
    },
    answered: (key, attempt, landsBy) => write(key, { ...attempt, at: clock.now(), landsBy }),
    confirm: (key, messageId) =>
      write(key, { state: 'posted', at: clock.now(), ...(messageId ? { messageId } : {}) }),
    clearAttempt: (key, previous) => {
      const now = clock.now();
      return write(key, { state: 'failing', at: now, failingSince: firstFailure(previous, now) ?? now });
    },
    hold: (key, batchId) => write(key, { state: 'held', at: clock.now(), batchId }),
    abandon: (key) => write(key, { state: 'abandoned', at: clock.now() }),
  };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
