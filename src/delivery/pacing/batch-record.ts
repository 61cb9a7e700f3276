import { z } from 'zod';
import { type ChannelRef, channelKey } from '../../domain/channels.js';
import type { CorrectionEvent, FundbotEvent, NoticeBatchEvent, NoticeKind } from '../../domain/events.js';
import { noticeKinds } from '../../domain/events.js';

/** One held notice inside a batch: enough to count it, name it and take it back. */
export interface HeldEntry {
  readonly eventId: string;
  /** How many supporters / posts the notice stood for (a burst: more than one). */
  readonly count: number;
  readonly names: readonly string[];
  /** A burst's entry keys, so a drop of one of its supporters finds it. */
  readonly keys?: readonly string[];
}

/**
 * A batch in the store (`pacing/batch/<id>`): open while its window runs, then
 * `posted` (kept 14 days so a later drop can edit it). Its id is derived from the
 * channel and the window, so a restart finds and completes the same batch.
 */
export interface BatchRecord {
  readonly id: string;
  readonly project: string;
  readonly kind: NoticeKind;
  readonly channel: ChannelRef;
  readonly reason: 'paced' | 'quiet-hours' | 'no-access';
  readonly since: number;
  /** Epoch ms the batch is posted (the window's end); null for a catch-up (posted when the bot can post again). */
  readonly due: number | null;
  readonly state: 'open' | 'posted';
  readonly entries: readonly HeldEntry[];
  readonly withdrawn: readonly string[];
  readonly supporterCount: number | null;
  /** When `supporterCount` and `fundingTotal` were read (absent while neither is known). */
  readonly countedAt?: number;
  readonly fundingTotal: number | null;
  readonly fundingBefore: number | null;
  readonly currency: string;
}

const channelSchema = z.object({
  platform: z.enum(['discord', 'slack', 'console']),
  workspaceId: z.string(),
  channelId: z.string(),
});

export const batchRecordSchema = z.object({
  id: z.string(),
  project: z.string(),
  kind: z.enum(noticeKinds),
  channel: channelSchema,
  reason: z.enum(['paced', 'quiet-hours', 'no-access']),
  since: z.number(),
  due: z.number().nullable(),
  state: z.enum(['open', 'posted']),
  entries: z.array(
    z.object({
      eventId: z.string(),
      count: z.number(),
      names: z.array(z.string()),
      keys: z.array(z.string()).optional(),
    }),
  ),
  withdrawn: z.array(z.string()),
  supporterCount: z.number().nullable(),
  countedAt: z.number().optional(),
  fundingTotal: z.number().nullable(),
  fundingBefore: z.number().nullable(),
  currency: z.string(),
}) as unknown as z.ZodType<BatchRecord>;

/** The batch id: one per (channel, project, kind, window start). */
export function batchId(channel: ChannelRef, project: string, kind: NoticeKind, since: number): string {
  return `batch:${channelKey(channel)}:${project}:${kind}:${since}`;
}

/**
 * The batch as the one notice that is posted (or edited in place after a drop).
 * `restNamedIn`: where the names that do not fit it are listed.
 */
export function batchEvent(
  batch: BatchRecord,
  detectedAt: number,
  restNamedIn?: 'thread' | 'messages',
): NoticeBatchEvent {
  return {
    type: 'notice-batch',
    id: batch.id,
    project: batch.project,
    occurredAt: batch.since,
    detectedAt,
    kind: batch.kind,
    channel: channelKey(batch.channel),
    reason: batch.reason,
    since: batch.since,
    count: batch.entries.reduce((sum, e) => sum + e.count, 0),
    names: batch.entries.flatMap((e) => e.names),
    ...(restNamedIn ? { restNamedIn } : {}),
    ...(batch.withdrawn.length > 0 ? { withdrawn: batch.withdrawn } : {}),
    supporterCount: batch.supporterCount,
    ...(batch.countedAt !== undefined ? { countedAt: batch.countedAt } : {}),
    fundingTotal: batch.fundingTotal,
    fundingBefore: batch.fundingBefore,
    currency: batch.currency,
  };
}

/** The entry with the dropped supporter taken out: a burst loses one, a single notice goes. */
export function withoutOne(entry: HeldEntry, event: CorrectionEvent): HeldEntry[] {
  if (event.type !== 'support-dropped' || !entry.keys || entry.count <= 1) return [];
  const at = entry.names.indexOf(event.displayName);
  return [
    {
      eventId: entry.eventId,
      count: entry.count - 1,
      names: at < 0 ? entry.names : entry.names.filter((_, i) => i !== at),
      keys: entry.keys.filter((k) => k !== event.entryKey),
    },
  ];
}

/** What a batch keeps of a notice it holds: its count and the names it shows. */
export function heldEntry(event: FundbotEvent): HeldEntry {
  switch (event.type) {
    case 'supporter':
      return { eventId: event.id, count: 1, names: [event.displayName] };
    case 'supporter-burst':
      return {
        eventId: event.id,
        count: event.count,
        names: [...event.displayNames],
        ...(event.entryKeys ? { keys: [...event.entryKeys] } : {}),
      };
    case 'wall-post':
      return { eventId: event.id, count: 1, names: [event.author] };
    case 'wall-post-burst':
      return { eventId: event.id, count: event.count, names: [...event.authors] };
    case 'blog-post':
      return { eventId: event.id, count: 1, names: [event.title] };
    default:
      return { eventId: event.id, count: 1, names: [] };
  }
}
