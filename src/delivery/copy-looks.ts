import type { ChannelRef } from '../domain/channels.js';
import type { NeutralMessage } from '../domain/neutral-message.js';
import type { Clock } from '../lib/clock.js';
import { claimRetryMs, type LookBudgets } from './look-budget.js';
import type { LookQueue } from './look-queue.js';
import type { ChannelPoster, DoubtSupport, ThreadTarget } from './ports.js';

/** An unfinished look for copies: the call that continues it. */
export interface CopySweep {
  readonly cursor: string;
  readonly to: number;
}

/** What a watch looks for: the delivery, where its earliest doubtful attempt began, a sweep to continue. */
export interface CopyWatchLook {
  readonly key: string;
  /** Every rendering its attempts carried (the first, and the repeat's that says it is late). */
  readonly messages: readonly NeutralMessage[];
  readonly from: number;
  readonly sweep?: CopySweep;
}

/** What one look for copies showed. */
export interface CopyLook {
  readonly copies: readonly string[];
  /** The span was read to its start. */
  readonly complete: boolean;
  readonly sweep?: CopySweep;
  /** When the look was made; undefined when the budget was not free. */
  readonly lookedAt?: number;
  readonly nextAt: number;
}

/**
 * One look for copies of a delivery posted again after a doubt (extra-copies.ts watches for a late landing
 * beside it), when the scope's budget is free and no doubt of the scope wants it within an interval (doubts
 * first): every copy the look showed, whether it read the span to its start (else `sweep` continues it), and
 * when to look next. One platform call when it looks; the budget's and the queue's store reads otherwise.
 */
export async function lookForCopies(
  deps: {
    readonly budgets: LookBudgets;
    readonly queue: LookQueue;
    readonly clock: Clock;
    readonly marginOf: (support: DoubtSupport) => number;
  },
  poster: ChannelPoster,
  channel: ChannelRef,
  thread: ThreadTarget | undefined,
  watch: CopyWatchLook,
): Promise<CopyLook> {
  const { budgets, queue, clock } = deps;
  const support = poster.doubt;
  const now = clock.now();
  if (!support) return { copies: [], complete: true, nextAt: now + 60_000 };
  const budget = support.lookBudget(channel, thread);
  const interval = budgets.intervalOf(budget);
  const lastLook = await budgets.lastLook(budget);
  const nextAt = Math.max((lastLook ?? now) + interval, now + 1_000);
  if (await queue.busy(budget.scope, interval * 2 + 5_000, interval))
    return { copies: [], complete: false, nextAt };
  const to = watch.sweep?.to ?? now;
  const looked = await budgets.spend(budget, lastLook, () =>
    support.look(
      channel,
      {
        from: watch.from - deps.marginOf(support),
        to,
        ...(watch.sweep ? { cursor: watch.sweep.cursor } : {}),
        wanted: watch.messages.map((message) => ({ key: watch.key, message })),
      },
      thread,
    ),
  );
  if (!looked) {
    // Not spent by the last look, yet the claim was not ours: another process holds it (claimRetryMs).
    const claimedElsewhere = lastLook === undefined || now >= lastLook + interval;
    return { copies: [], complete: false, nextAt: claimedElsewhere ? now + claimRetryMs : nextAt };
  }
  const page = looked.result;
  const copies = (page.copies ?? []).filter((c) => c.key === watch.key).map((c) => c.messageId);
  const found = page.found.get(watch.key);
  if (found !== undefined && !copies.includes(found)) copies.push(found);
  return {
    copies,
    complete: page.cursor === undefined,
    ...(page.cursor ? { sweep: { cursor: page.cursor, to } } : {}),
    lookedAt: looked.lookedAt,
    nextAt: looked.lookedAt + interval,
  };
}
