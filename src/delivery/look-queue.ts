import { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';

interface QueueEntry {
  /** Epoch ms the channel's oldest open doubt began. */
  readonly oldest: number;
  /** When its holder last said it still waits (an entry not renewed is its dead holder's: it lapses). */
  readonly seenAt: number;
}

const queueSchema = z.record(
  z.string(),
  z.object({ oldest: z.number(), seenAt: z.number() }),
) as unknown as z.ZodType<Readonly<Record<string, QueueEntry>>>;

/**
 * Who looks next in a look budget's scope (Slack: one conversations.history call a minute per workspace):
 * the channel whose open doubt is oldest, whichever replica holds it. Without it the channels' lanes race for
 * each interval and one may wait for minutes while younger doubts are looked at.
 *
 * Store: one small value per scope (`delivery/look-queue/<scope>`, one entry per channel waiting), read when
 * a channel wants to look; written only while channels wait for one budget (an entry new, changed or due for
 * renewal, and removed when its channel has nothing left to look for);
 * an entry not renewed for `staleMs` (its holder died; its successor renews it) no longer counts. Two replicas
 * writing at once may drop an entry: it is written again at its channel's next try.
 */
export function createLookQueue(options: { readonly store: KeyValueStore; readonly clock: Clock }) {
  const { store, clock } = options;
  const keyOf = (scope: string) => `delivery/look-queue/${encodeURIComponent(scope)}`;
  const read = async (scope: string) => (await store.get(keyOf(scope), queueSchema)) ?? {};

  return {
    /**
     * Whether the channel may look now: the budget is `free` and no other channel's open doubt is older. A
     * channel that must wait (budget spent, or an older doubt first) puts its oldest doubt in line, so it is
     * not passed over when the budget frees. `staleMs`: how long an entry counts without renewal.
     */
    async mayLook(
      scope: string,
      channel: string,
      oldest: number,
      staleMs: number,
      free: boolean,
    ): Promise<boolean> {
      const now = clock.now();
      const queue = await read(scope);
      const live = Object.entries(queue).filter(([, e]) => now - e.seenAt < staleMs);
      const older = live.some(([name, e]) => name !== channel && e.oldest < oldest);
      const mine = queue[channel];
      if ((!free || older) && (!mine || mine.oldest !== oldest || now - mine.seenAt > staleMs / 3)) {
        const next = Object.fromEntries(live.filter(([name]) => name !== channel));
        next[channel] = { oldest, seenAt: now };
        await store.set(keyOf(scope), next, staleMs * 2);
      }
      return free && !older;
    },

    /** Whether a channel's doubt waits in the scope (a watch for extra copies then leaves it the budget). */
    async busy(scope: string, staleMs: number): Promise<boolean> {
      const now = clock.now();
      return Object.values(await read(scope)).some((e) => now - e.seenAt < staleMs);
    },

    /** The channel has nothing left to look for in the scope. */
    async leave(scope: string, channel: string): Promise<void> {
      const queue = await read(scope);
      if (!(channel in queue)) return;
      const { [channel]: _gone, ...rest } = queue;
      if (Object.keys(rest).length === 0) await store.delete(keyOf(scope));
      else await store.set(keyOf(scope), rest, 10 * 60_000);
    },
  };
}

export type LookQueue = ReturnType<typeof createLookQueue>;
