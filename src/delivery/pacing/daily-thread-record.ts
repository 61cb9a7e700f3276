import { z } from 'zod';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import type {
  DailyThreadEvent,
  NoticeBatchEvent,
  SupporterBurstEvent,
  SupporterEvent,
} from '../../domain/events.js';
import type { ThreadTarget } from '../ports.js';

/** A notice that goes into the daily thread: a supporter, a burst, or a batch of supporters. */
export type ThreadNotice = SupporterEvent | SupporterBurstEvent | NoticeBatchEvent;

/** Event ids remembered as counted: a retry is always of a recent notice (the outbox keeps order). */
const countedKept = 50;
/** Names kept for the parent's "Latest:" line. */
const latestKept = 3;

/**
 * One channel's thread of one project on one day (`pacing/thread/<project>/<date>/<channel>`),
 * written only by the delivering side: the parent's and the thread's ids once they exist,
 * and the running figures. ~300 bytes plus the last {@link countedKept} event ids (~2 KB).
 */
export interface DailyThreadRecord {
  readonly project: string;
  readonly date: string;
  readonly channel: ChannelRef;
  readonly parentMessageId?: string;
  readonly thread?: ThreadTarget;
  readonly count: number;
  readonly latest: readonly string[];
  readonly supporterCount: number | null;
  readonly fundingTotal: number | null;
  readonly currency: string;
  /** The latest counted notices' ids, so a retried notice is counted once. */
  readonly counted: readonly string[];
  /** Supporter notices taken back (support dropped) and subtracted, so a retried drop subtracts once. */
  readonly withdrawn?: readonly string[];
}

const channelSchema = z.object({
  platform: z.enum(['discord', 'slack', 'console']),
  workspaceId: z.string(),
  channelId: z.string(),
});

export const dailyThreadRecordSchema = z.object({
  project: z.string(),
  date: z.string(),
  channel: channelSchema,
  parentMessageId: z.string().optional(),
  thread: z.object({ parentMessageId: z.string(), threadId: z.string().optional() }).optional(),
  count: z.number(),
  latest: z.array(z.string()),
  supporterCount: z.number().nullable(),
  fundingTotal: z.number().nullable(),
  currency: z.string(),
  counted: z.array(z.string()),
  withdrawn: z.array(z.string()).optional(),
}) as unknown as z.ZodType<DailyThreadRecord>;

/** The figures the parent shows; an edit is due when they differ from what was last shown. */
export interface ShownFigures {
  readonly count: number;
  readonly latest: readonly string[];
  readonly supporterCount: number | null;
  readonly fundingTotal: number | null;
  /** Epoch ms of the post or edit that showed them. */
  readonly at: number;
}

export const shownFiguresSchema = z.object({
  count: z.number(),
  latest: z.array(z.string()),
  supporterCount: z.number().nullable(),
  fundingTotal: z.number().nullable(),
  at: z.number(),
}) as unknown as z.ZodType<ShownFigures>;

/** A new, empty day. */
export function freshRecord(project: string, date: string, channel: ChannelRef): DailyThreadRecord {
  return {
    project,
    date,
    channel,
    count: 0,
    latest: [],
    supporterCount: null,
    fundingTotal: null,
    currency: '',
    counted: [],
  };
}

/** The record with the notice counted in (unchanged when it already was). */
export function countIn(record: DailyThreadRecord, notice: ThreadNotice): DailyThreadRecord {
  if (record.counted.includes(notice.id)) return record;
  const [count, names] =
    notice.type === 'supporter'
      ? [1, [notice.displayName]]
      : notice.type === 'supporter-burst'
        ? [notice.count, notice.displayNames.slice(0, latestKept)]
        : [notice.count, notice.names.slice(-latestKept).reverse()];
  return {
    ...record,
    count: record.count + count,
    latest: names.length > 0 ? names : record.latest,
    supporterCount: notice.supporterCount ?? record.supporterCount,
    fundingTotal: notice.fundingTotal ?? record.fundingTotal,
    currency: notice.currency || record.currency,
    counted: [...record.counted, notice.id].slice(-countedKept),
  };
}

/**
 * The record with a dropped support taken out of the day's count, when the notice
 * that announced it (`announcedIn`: its own id, or the batch it went out in) was
 * counted here; unchanged otherwise or when it was taken out before.
 */
export function withdrawFrom(
  record: DailyThreadRecord,
  originalEventId: string,
  announcedIn: readonly string[],
): DailyThreadRecord {
  const withdrawn = record.withdrawn ?? [];
  if (withdrawn.includes(originalEventId)) return record;
  if (!record.counted.some((id) => id === originalEventId || announcedIn.includes(id))) return record;
  return {
    ...record,
    count: Math.max(0, record.count - 1),
    withdrawn: [...withdrawn, originalEventId].slice(-countedKept),
  };
}

/** Whether the parent shows these figures already. */
export function sameFigures(record: DailyThreadRecord, shown: ShownFigures | undefined): boolean {
  return (
    shown !== undefined &&
    shown.count === record.count &&
    shown.supporterCount === record.supporterCount &&
    shown.fundingTotal === record.fundingTotal &&
    shown.latest.join('\n') === record.latest.join('\n')
  );
}

/** The parent's idempotency id: one per project, day and channel. */
export function parentId(record: Pick<DailyThreadRecord, 'project' | 'date' | 'channel'>): string {
  return `thread-parent:${record.project}:${record.date}:${channelKey(record.channel)}`;
}

/** The parent message as an event: posted once through the notice router, edited with newer figures. */
export function parentEvent(record: DailyThreadRecord, goal: number | null, now: number): DailyThreadEvent {
  return {
    type: 'daily-thread',
    id: parentId(record),
    project: record.project,
    occurredAt: now,
    detectedAt: now,
    channel: channelKey(record.channel),
    date: record.date,
    count: record.count,
    latest: record.latest,
    supporterCount: record.supporterCount,
    fundingTotal: record.fundingTotal,
    goal,
    currency: record.currency,
  };
}

/** YYYY-MM-DD of `epochMs` in the time zone (the project's local day). */
export function localDate(epochMs: number, timeZone: string): string {
  // en-CA writes ISO dates: 2025-06-02.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(epochMs);
}
