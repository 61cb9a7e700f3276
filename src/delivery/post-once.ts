import type { ChannelRef } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { Clock } from '../lib/clock.js';
import { ChannelUnavailableError } from './channel-unavailable-error.js';
import type { DeliveryKey, DeliveryLedger, DeliveryRecord } from './delivery-ledger.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import type { DoubtResolver } from './doubt-resolver.js';
import { answered, answeredLandsWithinMs } from './lane-failure.js';
import { idempotencyKeyOf, type LaneItem } from './lane-item.js';
import type { ChannelPoster } from './ports.js';

/** Thrown while a message that must exist first (a daily thread's parent) cannot be posted yet. */
export class NotPostedYetError extends Error {
  override readonly name = 'NotPostedYetError';
  constructor(
    message: string,
    /** When it is worth trying again: the doubt resolver's time for its decision (its deciding look), or soon. */
    readonly retryAt: number,
    /** The idempotency key of the message waited for: its sighting (witness.ts) decides it, so it wakes the wait. */
    readonly awaits: string,
    /** `cause`: the post of that message itself failed in doubt (a timeout, a reset, a 5xx) just now. */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A parent another replica is posting now: its record says what happened within seconds. */
const claimedRetryMs = 5_000;

/**
 * Posts a message that another one hangs on (the daily thread's parent), inside that
 * other's attempt: claim, record, post, confirm, with a doubt decided by the same
 * resolver as any notice. Resolves with its message id; throws while it cannot be
 * posted or decided yet (the reply is then retried by its lane, never posted blind).
 */
export function createPostOnce(deps: {
  readonly ledger: DeliveryLedger;
  readonly resolver: DoubtResolver;
  readonly posterFor: (platform: ChannelRef['platform']) => ChannelPoster | undefined;
  readonly clock: Clock;
  /** Posted after a doubt: watched for a late copy of the earlier attempt (extra-copies.ts). */
  readonly reposted?: (item: LaneItem, canonical: string | undefined) => void;
}) {
  const { ledger, resolver } = deps;
  /**
   * Parents known to be in the channel whose confirming write the store refused: written at the next call (the
   * reply waiting on the parent retries), with the message id, without a look and never posted again.
   */
  const unconfirmed = new Map<string, { messageId: string | undefined; attemptStartedAt?: number }>();
  const confirmOrKeep = async (key: DeliveryKey, record: DeliveryRecord, messageId: string | undefined) => {
    const name = idempotencyKeyOf(key);
    try {
      await ledger.confirm(key, messageId);
      unconfirmed.delete(name);
    } catch (error) {
      const { attemptStartedAt } = record;
      unconfirmed.set(name, { messageId, ...(attemptStartedAt !== undefined ? { attemptStartedAt } : {}) });
      throw error;
    }
  };
  return async (id: string, channel: ChannelRef, message: NeutralMessage): Promise<string | undefined> => {
    const poster = deps.posterFor(channel.platform);
    if (!poster) return undefined;
    const key = { id, channel };
    const idempotencyKey = idempotencyKeyOf(key);
    const mark = poster.doubt?.markOf?.(idempotencyKey);
    if (!(await ledger.claim(key)))
      throw new NotPostedYetError(
        `${id} is being posted by another replica`,
        deps.clock.now() + claimedRetryMs,
        idempotencyKey,
      );
    try {
      let record = await ledger.get(key);
      if (record?.state === 'posted') return record.messageId;
      const kept = unconfirmed.get(idempotencyKey);
      if (kept && record?.state === 'attempting' && record.attemptStartedAt === kept.attemptStartedAt) {
        await confirmOrKeep(key, record, kept.messageId);
        return kept.messageId;
      }
      // Decided otherwise meanwhile (another replica): the record says what happened.
      unconfirmed.delete(idempotencyKey);
      if (record?.state === 'attempting') {
        const started = record.attemptStartedAt ?? record.at;
        const decision = (
          await resolver.decide(poster, channel, record.thread, [
            {
              key: idempotencyKey,
              startedAt: started,
              // Answered (a 5xx) by this process or one before it: nothing lands after that answer.
              ...(record.landsBy !== undefined ? { landsBy: record.landsBy } : {}),
              message,
              ...(mark !== undefined ? { mark } : {}),
            },
          ])
        ).get(idempotencyKey);
        if (decision?.kind === 'posted') {
          await confirmOrKeep(key, record, decision.messageId);
          return decision.messageId;
        }
        if (decision?.kind !== 'absent')
          throw new NotPostedYetError(
            `${id} is in doubt until a look decides it`,
            decision?.kind === 'wait' ? decision.until : deps.clock.now() + claimedRetryMs,
            idempotencyKey,
          );
      }
      const doubtAt = record?.state === 'attempting' ? (record.attemptStartedAt ?? record.at) : undefined;
      record = await ledger.beginAttempt(key, record);
      let receipt: Awaited<ReturnType<ChannelPoster['post']>>;
      try {
        receipt = await poster.post(channel, message, idempotencyKey, undefined, record.attemptStartedAt);
      } catch (error) {
        // Not posted (a refusal for access is one too, as channel-lane.ts reads it): not in doubt.
        if (error instanceof DeliveryNotPostedError || error instanceof ChannelUnavailableError) {
          await ledger.clearAttempt(key, record).catch(() => {});
          throw error;
        }
        // In doubt: the resolver decides it (asked again in a second), its sighting at once. Answered (a 5xx), it
        // landed by then if at all: kept with the attempt, so a process that takes the doubt over after a kill
        // looks then too, not after the late-landing span (as channel-lane.ts does for notices).
        if (answered(error))
          await ledger.answered(key, record, deps.clock.now() + answeredLandsWithinMs).catch(() => {});
        throw new NotPostedYetError(`${id} went in doubt`, deps.clock.now(), idempotencyKey, {
          cause: error,
        });
      }
      // Posted after a doubt: watched for a late copy (before the confirmation, which the store may refuse).
      if (doubtAt !== undefined)
        deps.reposted?.(
          {
            type: 'post',
            key,
            idempotencyKey,
            occurredAt: doubtAt,
            kind: 'thread-parent',
            record: undefined,
            firstDoubtAt: doubtAt,
            reposted: true,
            render: async () => message,
            settle: () => {},
          },
          receipt?.messageId,
        );
      await confirmOrKeep(key, record, receipt?.messageId);
      return receipt?.messageId;
    } finally {
      await ledger.release(key).catch(() => {});
    }
  };
}
