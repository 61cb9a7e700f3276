import {
  type FeedHealthEvent,
  type FeedStop,
  type FeedStopCause,
  type NoticeKind,
  noticeKinds,
} from './events.js';
import { feedTable } from './feeds.js';

export type { FeedStop, FeedStopCause } from './events.js';

/**
 * Feed health in the channel (issue 32): when a feed a channel relies on stops, the channel is told once what
 * stopped, why and who fixes it how, and once more when it resumes. The engine observes (which feeds are stopped
 * now, which are proven working); this module is the one rule that turns those observations into notices, pure so
 * it is tested with numbers, and its state is stored with the project's state so a restart or another replica
 * taking the project over continues it (the notices' ids derive from the stop's start: the delivery ledger posts
 * each once per channel, whoever emits it again).
 */

/** One stop the rule remembers: since when, and whether the channels were told. */
export interface FeedHealthRecord {
  readonly stop: FeedStop;
  /** Epoch ms the stop began (for `unreachable`: the last success before it). */
  readonly since: number;
  readonly announced: boolean;
}

/** The rule's state per project: subject -> its current stop. Stored in the project's state head. */
export type FeedHealthState = Readonly<Record<string, FeedHealthRecord>>;

/** What the engine sees now. A subject in neither list is unknown (not yet polled since a start): kept as it is. */
export interface FeedHealthObservation {
  /** Stopped now; `since` when the engine knows an earlier start than now (the API's last success). */
  readonly stopped: readonly (FeedStop & { readonly since?: number })[];
  /** Subjects proven working now (a poll of them got through). */
  readonly working: readonly string[];
}

/** The default hold: a stop is said only once it lasted 3 minutes, so a short one says nothing. */
export const FEED_STOP_HOLD_MS = 3 * 60_000;
/** The API out of reach is a stop only once it lasted 10 minutes (issue 32): shorter outages are retried quietly. */
export const UNREACHABLE_HOLD_MS = 10 * 60_000;

/** How long a stop of this cause must last before it is said. */
export function holdFor(cause: FeedStopCause, holdMs = FEED_STOP_HOLD_MS): number {
  return cause === 'unreachable' ? Math.max(UNREACHABLE_HOLD_MS, holdMs) : holdMs;
}

/** The notice kinds a stop silences: its channels are those subscribed to any of them. */
export function kindsOfStop(stop: FeedStop): readonly NoticeKind[] {
  return stop.feed === 'all' ? noticeKinds : feedTable[stop.feed].notices;
}

export interface FeedHealthStep {
  readonly next: FeedHealthState;
  readonly events: readonly FeedHealthEvent[];
  /** Stops that ended before they were said: a flap, said not at all. */
  readonly flaps: number;
}

/** The id of a stop's notice (or its resume's): the same stop gives the same id on any replica, after any restart. */
export function feedHealthEventId(
  project: string,
  record: FeedHealthRecord,
  change: FeedHealthEvent['change'],
): string {
  return `feed-health:${project}:${record.stop.subject}:${record.since}:${change}`;
}

function eventOf(
  project: string,
  record: FeedHealthRecord,
  change: FeedHealthEvent['change'],
  now: number,
): FeedHealthEvent {
  return {
    type: 'feed-health',
    id: feedHealthEventId(project, record, change),
    project,
    occurredAt: change === 'stopped' ? record.since : now,
    detectedAt: now,
    change,
    stop: record.stop,
    since: record.since,
    kinds: kindsOfStop(record.stop),
  };
}

/**
 * One step of the rule at `now`:
 * - a stop seen for the first time is remembered from its start, unsaid;
 * - a stop that lasted its hold ({@link holdFor}) is said once (`stopped`);
 * - a stop whose subject works again is said to have ended (`resumed`) only if its stop was said; otherwise it
 *   was a flap and says nothing;
 * - a subject the engine knows nothing about now (not polled since a restart, or the project paused so its
 *   feeds are not read) keeps its record: a restart neither repeats nor forgets a stop.
 * A stop whose cause changes (a revoked key replaced by one of another project) stays the same stop.
 */
export function stepFeedHealth(
  project: string,
  state: FeedHealthState,
  seen: FeedHealthObservation,
  now: number,
  holdMs = FEED_STOP_HOLD_MS,
): FeedHealthStep {
  const next: Record<string, FeedHealthRecord> = { ...state };
  const events: FeedHealthEvent[] = [];
  let flaps = 0;
  for (const subject of seen.working) {
    const record = next[subject];
    if (record === undefined) continue;
    delete next[subject];
    if (record.announced) events.push(eventOf(project, record, 'resumed', now));
    else flaps += 1;
  }
  for (const { since, ...stop } of seen.stopped) {
    const record = next[stop.subject];
    if (record === undefined) {
      next[stop.subject] = { stop, since: Math.min(since ?? now, now), announced: false };
    } else if (!record.announced && record.stop.cause !== stop.cause) {
      next[stop.subject] = { ...record, stop };
    }
  }
  for (const [subject, record] of Object.entries(next)) {
    if (record.announced || now - record.since < holdFor(record.stop.cause, holdMs)) continue;
    const said = { ...record, announced: true };
    next[subject] = said;
    events.push(eventOf(project, said, 'stopped', now));
  }
  return { next, events, flaps };
}

/** Epoch ms the next unsaid stop reaches its hold (the engine wakes then), or Infinity. */
export function nextFeedHealthDue(state: FeedHealthState, holdMs = FEED_STOP_HOLD_MS): number {
  let due = Number.POSITIVE_INFINITY;
  for (const record of Object.values(state)) {
    if (!record.announced) due = Math.min(due, record.since + holdFor(record.stop.cause, holdMs));
  }
  return due;
}
