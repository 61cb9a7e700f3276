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

/** What a look for copies wants: the deliveries of one channel (or thread), from where the earliest may land. */
export interface CopyWatchLook {
  /** Every delivery watched, each with every rendering its attempts carried (the first, and the repeat's). */
  readonly wanted: readonly { readonly key: string; readonly message: NeutralMessage }[];
  /** Epoch ms: the look reads from here (less the clock margin) to now, or continues `sweep`. */
  readonly from: number;
  readonly sweep?: CopySweep;
}

/** What one look for copies showed. */
export interface CopyLook {
  /** Every copy of a wanted delivery the look showed. */
  readonly copies: readonly { readonly key: string; readonly messageId: string }[];
  /** The span was read to its start. */
  readonly complete: boolean;
  /** When complete: every message from `from` up to this time (epoch ms) was read. */
  readonly readTo?: number;
  readonly sweep?: CopySweep;
  /** When the look was made; undefined when the budget was not free. */
  readonly lookedAt?: number;
  readonly nextAt: number;
}

/**
 * One look for copies of the deliveries of a channel (or thread) posted again after a doubt (extra-copies.ts
 * watches for a late landing beside each; one look serves them all), when the scope's budget is free and no doubt of the scope wants it within an interval (doubts
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
        wanted: watch.wanted,
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
  const keys = new Set(watch.wanted.map((w) => w.key));
  const copies = (page.copies ?? []).filter((c) => keys.has(c.key));
  for (const [key, messageId] of page.found)
    if (keys.has(key) && !copies.some((c) => c.messageId === messageId)) copies.push({ key, messageId });
  return {
    copies,
    complete: page.cursor === undefined,
    ...(page.cursor ? { sweep: { cursor: page.cursor, to } } : { readTo: to }),
    lookedAt: looked.lookedAt,
    nextAt: looked.lookedAt + interval,
  };
}
