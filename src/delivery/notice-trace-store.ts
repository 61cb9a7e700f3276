import { z } from 'zod';
import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import { noticeKinds } from '../domain/events.js';
import { heldNoticeMs } from '../domain/held-notices.js';
import type { WarningLogger } from '../domain/logger.js';
import { type TracedNotice, type TraceEntry, traceStateOf } from '../domain/notice-trace.js';
import type { KeyValueStore } from '../lib/store.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import type { BatchRecord } from './pacing/batch-record.js';

/** Entries per page: a new notice rewrites one page of at most this many. */
const pageSize = 5;
/** Pages kept per channel, a ring: the last 36-40 notices (`/notices` shows 20, `/why` searches them all). */
const pageCount = 8;
/** Notices a channel's trace holds at least. */
export const traceKept = pageSize * (pageCount - 1) + 1;

const entrySchema = z.object({
  id: z.string(),
  project: z.string(),
  kind: z.enum(noticeKinds),
  type: z.string(),
  names: z.array(z.string()),
  count: z.number(),
  subject: z.string().optional(),
  occurredAt: z.number(),
  seenAt: z.number(),
  placedAt: z.number(),
  skipped: z.enum(['filtered', 'digest']).optional(),
  doubtSince: z.number().optional(),
  doubtOutcome: z.enum(['found', 'posted']).optional(),
  correctedAt: z.number().optional(),
}) as unknown as z.ZodType<TraceEntry>;
/** A page holds the notices numbered `first` … `first + pageSize - 1` of its channel. */
const pageSchema = z.object({ first: z.number(), entries: z.array(entrySchema) });
const headSchema = z.object({ next: z.number() });
type Page = z.infer<typeof pageSchema>;

export interface NoticeTraceDeps {
  readonly store: KeyValueStore;
  readonly ledger: Pick<DeliveryLedger, 'get'>;
  readonly batchOf: (id: string) => Promise<BatchRecord | undefined>;
  readonly cannotPostSince: (channel: ChannelRef) => number | undefined;
  readonly logger: WarningLogger;
  /** Now, for an attempt that only awaits its answer (notice-trace.ts `answerAwaitedMs`). */
  readonly now: () => number;
  /** Tracks background work (the pipeline's idle waits for it). */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
}

/**
 * Each channel's recent notices and what happened to them: the delivery trace `/notices` and `/why` read. It
 * keeps what the ledger cannot answer by channel (which notices, in what order, what they showed publicly, a
 * doubt and its end, a correction, a notice a rule of the channel skipped); the state itself is read from the
 * ledger, the batch and the channel's access at the time of asking, so it is never a stale copy.
 *
 * Layout (`trace/<channel>/…` in the pipeline's store, kept 14 days like the delivery records): `head`
 * (`{next}`, ~50 bytes with its key) and a ring of 8 pages of 5 entries (~220 bytes an entry), so a channel
 * keeps its last 36-40 notices (about 9 KB at rest).
 *
 * Cost: written behind the notices, like a group commit: a channel's first new entry is written at once, and
 * the entries placed while that write is under way go together in the next one. A write is 1-2 reads and 2
 * writes (the head and the page, two pages when the ring turns): about 710 bytes per entry when a channel gets
 * one notice at a time (measured in test/delivery/notice-trace.test.ts), less per entry in a burst. A doubt or a
 * correction rewrites its page once more. No timer: nothing waits to be written. A failed write is logged and
 * never holds a notice back (the trace then misses those entries, never a notice). Writes of one channel are
 * serialized in the process; two replicas writing into one channel in the same instant may lose one write's
 * entries of the trace.
 */
export function createNoticeTrace(deps: NoticeTraceDeps) {
  const { store, logger } = deps;
  const prefix = (channel: ChannelRef) => `trace/${channelKey(channel)}/`;
  const pageKey = (channel: ChannelRef, number: number) =>
    `${prefix(channel)}page/${Math.floor(number / pageSize) % pageCount}`;
  const chains = new Map<string, Promise<unknown>>();
  /** Entries placed and not yet written, per channel key (with the channel); each has its write queued. */
  const gathered = new Map<string, { channel: ChannelRef; entries: TraceEntry[] }>();

  /** One channel's writes in order; the chain is dropped once it is idle. */
  function serialized(channel: ChannelRef, label: string, work: () => Promise<void>): Promise<void> {
    const key = channelKey(channel);
    const run = (chains.get(key) ?? Promise.resolve())
      .then(work)
      .catch((error: unknown) =>
        logger.warn({ channel: key, ...errorSummary(error) }, `delivery trace not written (${label})`),
      );
    chains.set(key, run);
    void deps.track(run).finally(() => {
      if (chains.get(key) === run) chains.delete(key);
    });
    return run;
  }

  const readPage = async (channel: ChannelRef, number: number): Promise<Page | undefined> => {
    const page = await store.get(pageKey(channel, number), pageSchema);
    // A page of an earlier turn of the ring holds other notices.
    return page && page.first === number - (number % pageSize) ? page : undefined;
  };
  const writePage = (channel: ChannelRef, page: Page) =>
    store.set(pageKey(channel, page.first), page, heldNoticeMs);

  /** Stores the channel's gathered entries: one read of the head (and of a part-filled page), one write each. */
  function flush(channel: ChannelRef): Promise<void> {
    const key = channelKey(channel);
    return serialized(channel, 'flush', async () => {
      const batch = gathered.get(key);
      gathered.delete(key);
      if (!batch || batch.entries.length === 0) return;
      const headKey = `${prefix(channel)}head`;
      let next = (await store.get(headKey, headSchema))?.next ?? 0;
      let page: Page | undefined = next % pageSize !== 0 ? await readPage(channel, next - 1) : undefined;
      const known = new Set(page?.entries.map((e) => e.id));
      const writes: Page[] = [];
      for (const entry of batch.entries) {
        // Offered again after a restart: already here.
        if (known.has(entry.id)) continue;
        known.add(entry.id);
        if (!page || next % pageSize === 0) {
          if (page) writes.push(page);
          page = { first: next - (next % pageSize), entries: [] };
        }
        page = { ...page, entries: [...page.entries, entry] };
        next += 1;
      }
      if (page) writes.push(page);
      for (const written of writes) await writePage(channel, written);
      await store.set(headKey, { next }, heldNoticeMs);
    });
  }

  async function recent(channel: ChannelRef, limit: number): Promise<{ number: number; page: Page }[]> {
    const head = await store.get(`${prefix(channel)}head`, headSchema);
    const pages: { number: number; page: Page }[] = [];
    if (!head) return pages;
    let count = 0;
    for (let n = head.next - 1; n >= 0 && n >= head.next - traceKept && count < limit; n -= pageSize) {
      const page = await readPage(channel, n);
      if (!page) break;
      pages.push({ number: n, page });
      count += page.entries.length;
    }
    return pages;
  }

  return {
    /** A notice was placed in the channel (posted, held, or skipped by a rule): it joins the trace. */
    note(channel: ChannelRef, entry: TraceEntry): void {
      const key = channelKey(channel);
      const batch = gathered.get(key) ?? { channel, entries: [] };
      if (batch.entries.some((e) => e.id === entry.id)) return;
      batch.entries.push(entry);
      if (!gathered.has(key)) {
        gathered.set(key, batch);
        // Runs after the write under way (if any), with every entry gathered by then.
        void flush(channel);
      }
    },

    /** Something happened to a traced notice later (a doubt, its end, a correction). */
    mark(channel: ChannelRef, id: string, change: (entry: TraceEntry) => TraceEntry): void {
      const waiting = gathered.get(channelKey(channel))?.entries;
      const index = waiting?.findIndex((e) => e.id === id) ?? -1;
      if (waiting && index >= 0) {
        waiting[index] = change(waiting[index] as TraceEntry);
        return;
      }
      void serialized(channel, 'mark', async () => {
        for (const { page } of await recent(channel, traceKept)) {
          const at = page.entries.findIndex((e) => e.id === id);
          const found = page.entries[at];
          if (!found) continue;
          const entries = page.entries.slice();
          entries[at] = change(found);
          await writePage(channel, { ...page, entries });
          return;
        }
      });
    },

    /** Stores every gathered entry now (the pipeline stops). */
    async flushAll(): Promise<void> {
      await Promise.all([...gathered.values()].map(({ channel }) => flush(channel)));
    },

    /** The channel's last `limit` notices, newest first, each with its state now. Reads only the store. */
    async read(channel: ChannelRef, limit: number): Promise<readonly TracedNotice[]> {
      // This process's entries not yet written are stored first, so the answer has them.
      if (gathered.has(channelKey(channel))) await flush(channel);
      await chains.get(channelKey(channel));
      const entries = (await recent(channel, limit))
        .flatMap(({ page }) => page.entries.slice().reverse())
        .slice(0, limit);
      const cannotPostSince = deps.cannotPostSince(channel);
      const batches = new Map<string, Promise<BatchRecord | undefined>>();
      return Promise.all(
        entries.map(async (entry): Promise<TracedNotice> => {
          const record = await deps.ledger.get({ id: entry.id, channel });
          let batch: Parameters<typeof traceStateOf>[2];
          if (record?.state === 'held' && record.batchId) {
            const id = record.batchId;
            if (!batches.has(id)) batches.set(id, deps.batchOf(id));
            const held = await batches.get(id);
            if (held) {
              const posted = held.state === 'posted' ? await deps.ledger.get({ id, channel }) : undefined;
              batch = {
                reason: held.reason,
                since: held.since,
                due: held.due,
                ...(posted?.state === 'posted'
                  ? {
                      posted: { at: posted.at, ...(posted.messageId ? { messageId: posted.messageId } : {}) },
                    }
                  : {}),
              };
            }
          }
          return { ...entry, now: traceStateOf(entry, record, batch, cannotPostSince, deps.now()) };
        }),
      );
    },
  };
}

export type NoticeTrace = ReturnType<typeof createNoticeTrace>;
