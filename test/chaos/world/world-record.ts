/**
 * What a chaos world records while it runs, for the judge: ground truth only (the simulator, the platform models,
 * the store's writes), never the bot's own counts.
 */
import { z } from 'zod';
import type { KeyValueStore } from '../../../src/lib/store.js';
import type { ManualClock } from '../../support/manual-clock.js';
import type { ChannelTimeline } from '../platforms/channel-timeline.js';
import type { JournalEntry } from '../platforms/exchange.js';
import type { Schedule } from '../vocabulary.js';

/**
 * A stretch in which the bot could not be expected to post on time: a process dead or stopped, the store out, a
 * channel closed, or the API failing (`api`: from a timed API fault until the API served the fundings again; it
 * holds back reads, not posts, so only the latency bound excuses it).
 */
export interface Disruption {
  readonly from: number;
  to: number;
  readonly what: 'kill' | 'pause' | 'store' | 'access' | 'api';
  /** For `access`: the judged channel (`slack:C…`). */
  readonly channel?: string;
  /**
   * For `access`: the platform refuses the bot's looks there too (Slack's `not_in_channel` to a bot that is no
   * member). An archived Slack channel stays readable, and a Discord channel that only denies sending still
   * answers reads: there a look decides as ever.
   */
  readonly looksRefused?: boolean;
}

/** One write of a delivery record (deliveries/notices/delivered/<id>/<channel>). */
export interface DeliveryWrite {
  readonly at: number;
  readonly key: string;
  readonly state: string;
}

export interface WorldRecord {
  readonly schedule: Schedule;
  readonly timeline: ChannelTimeline;
  readonly journal: readonly JournalEntry[];
  /** Every support in status success made after the bot's first reads, with its time. */
  readonly truth: readonly { readonly name: string; readonly at: number }[];
  /** The first time the API served each supporter's name to the bot. */
  readonly readAt: ReadonlyMap<string, number>;
  readonly deliveryWrites: readonly DeliveryWrite[];
  readonly disruptions: readonly Disruption[];
  /** Things the world itself noticed (a livelock it broke, a kill trigger that never fired). */
  readonly notes: readonly string[];
  /** The processes' warnings and errors, for reading a failing seed. */
  readonly log: readonly string[];
  readonly endedAt: number;
  /** Set when the world stopped early on a timer spin (run-world.ts): what it saw. */
  readonly spin?: string;
  /** Requests the bot made to the API, by path's last part (fundings, wall, …). */
  readonly apiRequests: Readonly<Record<string, number>>;
}

export const deliveryRecordPrefix = 'deliveries/notices/delivered/';
const recordState = z.object({ state: z.string() }).passthrough();

/** The store, telling `writes` of every delivery record written (the bot's ledger, as it lands in the store). */
export function watchDeliveryWrites(
  inner: KeyValueStore,
  clock: ManualClock,
  writes: DeliveryWrite[],
): KeyValueStore {
  return {
    ...inner,
    get: (key, schema) => inner.get(key, schema),
    async set(key, value, ttlMs) {
      await inner.set(key, value, ttlMs);
      if (key.startsWith(deliveryRecordPrefix)) {
        const parsed = recordState.safeParse(value);
        if (parsed.success)
          writes.push({
            at: clock.now(),
            key: key.slice(deliveryRecordPrefix.length),
            state: parsed.data.state,
          });
      }
    },
    delete: (key) => inner.delete(key),
    setIfAbsent: (key, value, ttlMs) => inner.setIfAbsent(key, value, ttlMs),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
    close: () => inner.close(),
  };
}

/** Every `display_name` in an API reply body. */
export function displayNamesIn(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(displayNamesIn);
  if (body && typeof body === 'object') {
    return Object.entries(body).flatMap(([k, v]) =>
      k === 'display_name' && typeof v === 'string' ? [v] : displayNamesIn(v),
    );
  }
  return [];
}
