import type { ChannelRef } from '../domain/channels.js';
import type { ScheduledPost } from './delivery-api.js';
import { type DeliveryLedger, isSettled } from './delivery-ledger.js';
import { type ItemOutcome, idempotencyKeyOf, type LaneItem } from './lane-item.js';
import { continueNamesAfter } from './names-after.js';
import type { Batches } from './pacing/batches.js';

/**
 * `Delivery.postScheduled`: a post a schedule decides (the digest, a roll-call, a pace alert) goes through its
 * channel's lane once, by the ledger: a settled one is answered from its record, one asked again while on its
 * way (the next hourly check) is the same delivery. When the bot cannot post in the channel it is parked until
 * the access watch sees it can again (awaiting-access.ts); without a check for the platform, the scheduler's
 * next run tries again. A roll-call's remaining names follow in its thread (names-after.ts).
 */
export function createScheduledPosts(deps: {
  readonly ledger: Pick<DeliveryLedger, 'get'>;
  readonly enqueue: (channel: ChannelRef, item: LaneItem) => void;
  readonly park: (item: LaneItem) => void;
  /** Whether the platform can tell when a refused channel opens again. */
  readonly watchesAccess: (platform: ChannelRef['platform']) => boolean;
  readonly batches: Pick<Batches, 'continueNames'>;
  readonly logger: Parameters<typeof continueNamesAfter>[1];
}): (request: ScheduledPost) => Promise<ItemOutcome> {
  const scheduled = new Map<string, Promise<ItemOutcome>>();
  return (request) => {
    const key = { id: request.id, channel: request.channel };
    const name = idempotencyKeyOf(key);
    const pending = scheduled.get(name);
    if (pending) return pending;
    const posting = (async (): Promise<ItemOutcome> => {
      const record = await deps.ledger.get(key);
      if (isSettled(record)) return { kind: 'posted', messageId: record?.messageId };
      return new Promise<ItemOutcome>((resolve) => {
        const item: LaneItem = {
          type: 'post',
          key,
          idempotencyKey: name,
          occurredAt: request.occurredAt,
          kind: request.kind,
          record,
          ...(request.giveUpAt !== undefined ? { giveUpAt: request.giveUpAt } : {}),
          render: () => request.render(),
          ...(deps.watchesAccess(request.channel.platform)
            ? {
                hold: async () => {
                  deps.park(item);
                  return { stored: Promise.resolve() };
                },
              }
            : {}),
          settle: resolve,
        };
        deps.enqueue(request.channel, item);
      }).then((outcome) => continueNamesAfter(deps.batches, deps.logger, request, outcome));
    })().finally(() => scheduled.delete(name));
    scheduled.set(name, posting);
    return posting;
  };
}
