import { localTime } from '../core/index.js';

export interface DigestDueInput {
  /** Epoch ms (the injected clock's now). */
  readonly now: number;
  /** IANA time zone the schedule is in. */
  readonly timeZone: string;
  /** Minutes after local midnight the digest is due (from `HH:MM`). */
  readonly minuteOfDay: number;
  /** Local date (`YYYY-MM-DD`) of the last digest already handled for this channel, if any. */
  readonly lastSentDate: string | undefined;
  /**
   * When the channel subscribed to the digest (epoch ms). A subscription made
   * after today's time gets its first digest at the next scheduled time, not at
   * the next check or restart. Omitted: subscribed long ago.
   */
  readonly subscribedAt?: number;
}

export interface DigestDue {
  readonly due: boolean;
  /** Today's local date: the digest this decision is about. */
  readonly date: string;
}

/**
 * Whether today's digest is due: the local time of day has reached the
 * configured time and today's digest was not handled yet. Pure, so a test (or a
 * restart) can decide it from the clock alone, so a restart posts only a digest
 * whose time passed while the channel was subscribed. A digest missed yesterday is
 * never due today: after midnight only today's counts. On a DST spring-forward
 * day a time inside the skipped hour becomes due at the first minute after it.
 */
export function digestDue(input: DigestDueInput): DigestDue {
  const local = localTime(input.now, input.timeZone);
  return {
    due:
      local.minuteOfDay >= input.minuteOfDay &&
      input.lastSentDate !== local.date &&
      !subscribedAfterToday(input, local.date),
    date: local.date,
  };
}

/** Whether the subscription came at or after today's scheduled time (or, with clock skew, later still). */
function subscribedAfterToday(input: DigestDueInput, today: string): boolean {
  if (input.subscribedAt === undefined) return false;
  const subscribed = localTime(input.subscribedAt, input.timeZone);
  if (subscribed.date !== today) return subscribed.date > today;
  return subscribed.minuteOfDay >= input.minuteOfDay;
}
