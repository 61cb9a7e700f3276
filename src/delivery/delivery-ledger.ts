import { z } from 'zod';
import { type ChannelRef, channelKey } from '../core/index.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Claims, memoryClaims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';

/**
 * Where one delivery stands. `attempting` is written BEFORE the request goes out:
 * a record still `attempting` when nobody is posting (crash, timeout, reset, 5xx)
 * means the message may or may not be in the channel: it is IN DOUBT, and only a
 * look at the channel may decide.
 */
export type DeliveryState =
  /** A request was (or was about to be) sent and nothing confirmed it. */
  | 'attempting'
  /** The platform confirmed the message (`messageId` when it named it). */
  | 'posted'
  /** The platform's answer proved nothing was posted; a retry may post freely. */
  | 'failing'
  /** The channel cannot take messages (gone, no access): final. */
  | 'unavailable'
  /** Failed for too long: given up for this channel, final. */
  | 'abandoned';

export interface DeliveryRecord {
  readonly state: DeliveryState;
  /** Epoch ms of the last change. */
  readonly at: number;
  /** Epoch ms the latest attempt began (the lower bound of where a doubtful message can be). */
  readonly attemptStartedAt?: number;
  /** The platform's id of the message: Slack `ts`, Discord message id. */
  readonly messageId?: string;
  /** Epoch ms of the first failure of this delivery, kept until it is posted or given up. */
  readonly failingSince?: number;
}

/** Which delivery: the idempotency id (an event id, a digest id) in one channel. */
export interface DeliveryKey {
  readonly id: string;
  readonly channel: ChannelRef;
}

/** 2 minutes: longer than one post with its timeouts takes, short enough that a crashed claimer costs little. */
export const defaultDeliveryClaimTtlMs = 2 * 60_000;

/**
 * The durable record of every (idempotency id, channel) delivery, shared by all
 * replicas through the injected store: the notice router uses it, the digest can.
 *
 * Cost: one store read per delivery, two writes per successful post (the attempt,
 * then the confirmation), one record of about 150 bytes per (id, channel), kept
 * `ttlMs` (14 days by default: longer than the outbox ever retries) through the
 * store's own TTL, so nothing needs sweeping.
 */
export interface DeliveryLedger {
  /**
   * Claims the delivery for this replica before it reads the record and posts: of two replicas delivering the
   * same (id, channel) at once, one gets true and the other must wait and retry (by then the record says
   * posted). One request per delivery (Redis `SET NX PX`, ~80 B until the claim expires or is given back).
   */
  claim(key: DeliveryKey): Promise<boolean>;
  /** Gives the claim back once the record says what happened, so a retry (here or elsewhere) may claim it. */
  release(key: DeliveryKey): Promise<void>;
  get(key: DeliveryKey): Promise<DeliveryRecord | undefined>;
  /** Before the request: marks the delivery in doubt until confirmed or cleared. */
  beginAttempt(key: DeliveryKey, previous: DeliveryRecord | undefined): Promise<DeliveryRecord>;
  /** The platform confirmed the message (or a look found it). */
  confirm(key: DeliveryKey, messageId: string | undefined): Promise<void>;
  /** The platform's answer proved nothing was posted: the attempt is cleared, not in doubt. */
  clearAttempt(key: DeliveryKey, previous: DeliveryRecord | undefined): Promise<DeliveryRecord>;
  /** Final outcomes: the channel cannot take it, or it failed for too long. */
  close(key: DeliveryKey, state: 'unavailable' | 'abandoned'): Promise<void>;
}

const recordSchema = z.object({
  state: z.enum(['attempting', 'posted', 'failing', 'unavailable', 'abandoned']),
  at: z.number(),
  attemptStartedAt: z.number().optional(),
  messageId: z.string().optional(),
  failingSince: z.number().optional(),
}) as z.ZodType<DeliveryRecord>;

/** 14 days: longer than the outbox ever retries an event, so a record outlives every retry. */
export const defaultDeliveryRecordTtlMs = 14 * 24 * 3_600_000;

export interface DeliveryLedgerOptions {
  readonly clock?: Clock;
  readonly ttlMs?: number;
  /** Key prefix inside the store. Default `delivery/`. */
  readonly prefix?: string;
  /** Claims shared by the replicas. Default: an in-process map (one process). */
  readonly claims?: Claims;
  /** How long an unreleased claim holds (its owner crashed mid-post). Default 2 minutes. */
  readonly claimTtlMs?: number;
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

  return {
    claim: (key) => claims.claimOnce(storeKey(key), claimTtlMs),
    release: (key) => claims.giveBack(storeKey(key)),
    get: async (key) => store.get(storeKey(key), recordSchema),
    beginAttempt: (key, previous) => {
      const now = clock.now();
      // A new attempt after a doubtful one: that one was the first failure.
      const failingSince =
        previous?.failingSince ?? (previous?.state === 'attempting' ? previous.attemptStartedAt : undefined);
      return write(key, {
        state: 'attempting',
        at: now,
        attemptStartedAt: now,
        ...(failingSince !== undefined ? { failingSince } : {}),
      });
    },
    confirm: async (key, messageId) => {
      await write(key, { state: 'posted', at: clock.now(), ...(messageId ? { messageId } : {}) });
    },
    clearAttempt: (key, previous) => {
      const now = clock.now();
      const failingSince =
        previous?.failingSince ?? (previous?.state === 'attempting' ? previous.attemptStartedAt : now);
      return write(key, { state: 'failing', at: now, failingSince: failingSince ?? now });
    },
    close: async (key, state) => {
      await write(key, { state, at: clock.now() });
    },
  };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
