/**
 * The delivery trace of a channel (issue 32, item 2): what happened to each of its recent notices, for
 * `/notices` and `/why`. Pure: what a trace entry keeps of an event, and which state an entry is in given what
 * the delivery ledger, its batch and the channel's access say. The store (src/delivery/notice-trace-store.ts)
 * and the wording (src/core/commands/notices.ts) live elsewhere.
 *
 * Personal data: an entry keeps only what a notice shows publicly (supporter display names, a wall author, a
 * title, a milestone's percent), never a wall message, a blog teaser, or anything supporter-only.
 */
import { type FundbotEvent, type NoticeKind, noticeKindOf } from './events.js';
import { singleLine } from './text.js';
import { limits } from './text-limits.js';

/** Notices a channel's `/notices` lists. */
export const noticesShown = 20;
/** Names an entry keeps of a burst (the names `/why` finds it by); the rest are counted. */
export const traceNamesKept = 10;

/** What the trace keeps of one notice in one channel (~150-250 bytes as JSON). */
export interface TraceEntry {
  /** The event's id: the delivery ledger's key with the channel. */
  readonly id: string;
  readonly project: string;
  readonly kind: NoticeKind;
  /** The event's type (`supporter`, `wall-post`, `milestone`…): how the notice is named. */
  readonly type: FundbotEvent['type'];
  /** Public names the notice shows (supporters, a wall author), bounded; empty for others. */
  readonly names: readonly string[];
  /** How many supporters or posts it stands for (a burst: more than `names`). */
  readonly count: number;
  /** A public title or figure (a reward or blog title, "50%"), bounded; absent for names. */
  readonly subject?: string;
  /** When it happened on the platform, and when fundbot saw it (epoch ms). */
  readonly occurredAt: number;
  readonly seenAt: number;
  /** When it was placed in this channel. */
  readonly placedAt: number;
  /** Not posted by a rule of the channel: its filters (`filtered`) or its pacing (`digest`: the digest covers it). */
  readonly skipped?: 'filtered' | 'digest';
  /** The post went in doubt at this time (the platform did not answer). */
  readonly doubtSince?: number;
  /** How that doubt ended: the message was there (`found`) or was posted again (`posted`). */
  readonly doubtOutcome?: 'found' | 'posted';
  /** A later correction edited the notice (a failed payment, a deleted post). */
  readonly correctedAt?: number;
}

/** A traced notice with where it stands now. */
export interface TracedNotice extends TraceEntry {
  readonly now: TraceState;
}

/** Where one traced notice stands now, from the ledger, its batch and the channel's access. */
export type TraceState =
  /** In the channel (`inBatch`: as part of a batch message); `messageId` when the platform named it. */
  | { readonly state: 'posted'; readonly at: number; readonly messageId?: string; readonly inBatch: boolean }
  /** Kept in a batch by pacing or quiet hours, posted at `until`. */
  | { readonly state: 'held'; readonly reason: 'paced' | 'quiet-hours'; readonly until: number }
  /** The bot cannot post in the channel: kept for its catch-up since `since`. */
  | { readonly state: 'cannot-post'; readonly since: number }
  /** Sent, its answer not back yet and no fault seen: in doubt only if the answer does not come. */
  | { readonly state: 'awaiting-answer'; readonly since: number }
  /** Sent, unconfirmed: looked for in the channel before any repeat. */
  | { readonly state: 'in-doubt'; readonly since: number }
  /** Refused by the platform for now: retried with backoff since `since`. */
  | { readonly state: 'retrying'; readonly since: number }
  /** Failed too long (or no poster for the platform): given up. */
  | { readonly state: 'given-up'; readonly at: number }
  | { readonly state: 'filtered' }
  | { readonly state: 'digest' }
  /** Placed, not yet attempted (its lane is busy). */
  | { readonly state: 'queued' };

/** The delivery record's part the state needs (see DeliveryRecord). */
export interface LedgerView {
  readonly state: 'attempting' | 'posted' | 'failing' | 'held' | 'unavailable' | 'abandoned';
  readonly at: number;
  readonly attemptStartedAt?: number;
  readonly failingSince?: number;
  readonly messageId?: string;
}

/** The batch's part the state needs (see BatchRecord) and its own delivery record when posted. */
export interface BatchView {
  readonly reason: 'paced' | 'quiet-hours' | 'no-access';
  readonly since: number;
  readonly due: number | null;
  readonly posted?: { readonly at: number; readonly messageId?: string };
}

/** What the trace keeps of an event placed in a channel. */
export function traceEntryOf(event: FundbotEvent, placedAt: number): TraceEntry {
  const name = (text: string) => singleLine(text, limits.name);
  const base = {
    id: event.id,
    project: event.project,
    kind: noticeKindOf(event),
    type: event.type,
    occurredAt: event.occurredAt,
    seenAt: event.detectedAt,
    placedAt,
  };
  const titled = (subject: string) => ({
    ...base,
    names: [],
    count: 1,
    subject: singleLine(subject, limits.title),
  });
  switch (event.type) {
    case 'supporter':
      return { ...base, names: [name(event.displayName)], count: 1 };
    case 'supporter-burst':
      return { ...base, names: event.displayNames.slice(0, traceNamesKept).map(name), count: event.count };
    case 'wall-post':
      return { ...base, names: [name(event.author)], count: 1 };
    case 'wall-post-burst':
      return { ...base, names: event.authors.slice(0, traceNamesKept).map(name), count: event.count };
    case 'blog-post':
    case 'reward-sold-out':
    case 'reward-unlocked':
    case 'reward-restocked':
    case 'reward-low-stock':
    case 'watching':
      return titled(event.title);
    case 'milestone':
      return titled(`${event.percent}%`);
    case 'project-status':
      return titled(event.to);
    case 'feed-health':
      return titled(event.stop.feed);
    default:
      return { ...base, names: [], count: 1 };
  }
}

/**
 * How long a post may wait for the platform's answer before it is called in doubt without a fault seen: longer than
 * any poster waits (Slack's client 10 s; Discord's REST 15 s a try, and it tries again on a timeout). A record left
 * attempting longer (its process died waiting) is in doubt.
 */
export const answerAwaitedMs = 60_000;

/**
 * The state of a traced notice: a rule of the channel first (filtered, digest), then the delivery record; a
 * held notice by its batch (pacing, quiet hours, or the channel's catch-up), posted once its batch is. An attempt
 * is in doubt once its post failed without proof (the trace's `doubtSince` at or after it), or past
 * {@link answerAwaitedMs} at `now`; before that it only awaits its answer.
 */
export function traceStateOf(
  entry: TraceEntry,
  record: LedgerView | undefined,
  batch: BatchView | undefined,
  cannotPostSince: number | undefined,
  now = Number.POSITIVE_INFINITY,
): TraceState {
  if (entry.skipped === 'filtered') return { state: 'filtered' };
  if (entry.skipped === 'digest') return { state: 'digest' };
  if (!record)
    return cannotPostSince !== undefined
      ? { state: 'cannot-post', since: cannotPostSince }
      : { state: 'queued' };
  switch (record.state) {
    case 'posted':
      return {
        state: 'posted',
        at: record.at,
        inBatch: false,
        ...(record.messageId ? { messageId: record.messageId } : {}),
      };
    case 'attempting': {
      const since = record.attemptStartedAt ?? record.at;
      const faulted = entry.doubtSince !== undefined && entry.doubtSince >= since;
      return !faulted && now - since < answerAwaitedMs
        ? { state: 'awaiting-answer', since }
        : { state: 'in-doubt', since };
    }
    case 'failing':
      return cannotPostSince !== undefined
        ? { state: 'cannot-post', since: cannotPostSince }
        : { state: 'retrying', since: record.failingSince ?? record.at };
    case 'unavailable':
    case 'abandoned':
      return { state: 'given-up', at: record.at };
    case 'held': {
      if (batch?.posted) {
        const { at, messageId } = batch.posted;
        return { state: 'posted', at, inBatch: true, ...(messageId ? { messageId } : {}) };
      }
      if (!batch || batch.reason === 'no-access' || batch.due === null) {
        return { state: 'cannot-post', since: batch?.since ?? cannotPostSince ?? record.at };
      }
      return { state: 'held', reason: batch.reason, until: batch.due };
    }
  }
}

/**
 * Whether an entry names the supporter a member asked about: the same letters, ignoring case, accents' forms
 * (NFKC) and spacing. Exact, not a substring: "Ann" does not find "Anna".
 */
export function namesSupporter(entry: TraceEntry, asked: string): boolean {
  const wanted = comparable(asked);
  if (wanted === '') return false;
  return (
    (entry.kind === 'supporters' || entry.type === 'supporter-burst') &&
    entry.names.some((n) => comparable(n) === wanted)
  );
}

function comparable(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
}
