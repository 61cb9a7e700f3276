import { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { KeyValueStore } from '../lib/store.js';

interface QueueEntry {
  /** Epoch ms the channel's oldest open doubt began. */
  readonly oldest: number;
  /**
   * When its next look is wanted: at once (a doubt to look for now), or later (the look that can prove its doubt
   * absent, due when a late landing can no longer come: look-timing.ts). Absent in entries stored before it was
   * kept: wanted since `seenAt`.
   */
  readonly due?: number;
  /** When its holder last said it still waits (an entry not renewed is its dead holder's: it lapses). */
  readonly seenAt: number;
}

/** What a channel wants of the scope's budget: its oldest open doubt, and when its next look is due. */
export interface LookWant {
  readonly oldest: number;
  readonly due: number;
}

const queueSchema = z.record(
  z.string(),
  z.object({ oldest: z.number(), due: z.number().optional(), seenAt: z.number() }),
) as unknown as z.ZodType<Readonly<Record<string, QueueEntry>>>;

const dueOf = (entry: QueueEntry) => entry.due ?? entry.seenAt;

/** Whether a channel may look now; if not, a look that comes first is due at `notBefore` (or now). */
export interface LookTurn {
  readonly now: boolean;
  readonly notBefore: number;
}

/**
 * Who looks next in a look budget's scope (Slack: one conversations.history call a minute per workspace):
 * the channel whose open doubt is oldest, whichever replica holds it. Without it the channels' lanes race for
 * each interval and one may wait for minutes while younger doubts are looked at.
 *
 * A channel whose doubt can be proven absent only later (its deciding look, look-timing.ts) holds that time
 * in line too, so no other channel's early look spends the budget it needs then.
 *
 * Store: one small value per scope (`delivery/look-queue/<scope>`, one entry per channel waiting), read when
 * a channel wants to look; written only while channels wait for one budget or for a deciding look (an entry
 * new, changed or due for renewal, and removed when its channel has nothing left to look for);
 * an entry not renewed for `staleMs` (its holder died; its successor renews it) no longer counts. Two replicas
 * writing at once may drop an entry: it is written again at its channel's next try.
 */
export function createLookQueue(options: { readonly store: KeyValueStore; readonly clock: Clock }) {
  const { store, clock } = options;
  const keyOf = (scope: string) => `delivery/look-queue/${encodeURIComponent(scope)}`;
  const read = async (scope: string) => (await store.get(keyOf(scope), queueSchema)) ?? {};

  /** Puts the channel's want in line (when new, changed or due for renewal), dropping lapsed entries. */
  async function putInLine(
    scope: string,
    queue: Readonly<Record<string, QueueEntry>>,
    channel: string,
    want: LookWant,
    staleMs: number,
  ): Promise<void> {
    const now = clock.now();
    const mine = queue[channel];
    if (mine && mine.oldest === want.oldest && mine.due === want.due && now - mine.seenAt <= staleMs / 3)
      return;
    const next = Object.fromEntries(
      Object.entries(queue).filter(([name, e]) => name !== channel && now - e.seenAt < staleMs),
    );
    next[channel] = { oldest: want.oldest, due: want.due, seenAt: now };
    await store.set(keyOf(scope), next, staleMs * 2);
  }

  return {
    /**
     * Whether the channel may look now: the budget is `free`, and a look now (which holds the budget for
     * `intervalMs`) pushes back no look that comes first: another channel's older doubt due within the interval,
     * or, when this look is early (its own deciding look is due later: `want.due`), any channel's look due within
     * it. A channel that must wait, or that looks early, puts its want in line, so its deciding look is not taken
     * by another channel's early one, nor passed over when the budget frees. `staleMs`: how long an entry counts
     * without renewal.
     */
    async mayLook(
      scope: string,
      channel: string,
      want: LookWant,
      intervalMs: number,
      staleMs: number,
      free: boolean,
      /** A look due up to this much sooner may be pushed back by this one (a stream read: stream-cover.ts). */
      pushableMs = 0,
    ): Promise<LookTurn> {
      const now = clock.now();
      const queue = await read(scope);
      const early = want.due > now;
      const first = Object.entries(queue).filter(
        ([name, e]) =>
          name !== channel &&
          now - e.seenAt < staleMs &&
          dueOf(e) + pushableMs < now + intervalMs &&
          (early || e.oldest < want.oldest),
      );
      const ours = free && first.length === 0;
      if (!ours || early) await putInLine(scope, queue, channel, want, staleMs);
      return { now: ours, notBefore: Math.max(now, ...first.map(([, e]) => dueOf(e))) };
    },

    /** The channel waits for a look due later (its deciding look): no other channel's early look takes it. */
    async reserve(scope: string, channel: string, want: LookWant, staleMs: number): Promise<void> {
      await putInLine(scope, await read(scope), channel, want, staleMs);
    },

    /**
     * Whether a channel's doubt wants the scope's budget within `intervalMs` (a watch for extra copies then
     * leaves it the budget).
     */
    async busy(scope: string, staleMs: number, intervalMs: number): Promise<boolean> {
      const now = clock.now();
      return Object.values(await read(scope)).some(
        (e) => now - e.seenAt < staleMs && dueOf(e) < now + intervalMs,
      );
    },

    /** Whether another channel of the scope waits for a look due before `before`. */
    async othersDue(scope: string, channel: string, before: number, staleMs: number): Promise<boolean> {
      const now = clock.now();
      return Object.entries(await read(scope)).some(
        ([name, e]) => name !== channel && now - e.seenAt < staleMs && dueOf(e) < before,
      );
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
