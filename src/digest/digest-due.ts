import { localTime } from './local-time.js';

export interface DigestDueInput {
  /** Epoch ms (the injected clock's now). */
  readonly now: number;
  /** IANA time zone the schedule is in. */
  readonly timeZone: string;
  /** Minutes after local midnight the digest is due (from `HH:MM`). */
  readonly minuteOfDay: number;
  /** Local date (`YYYY-MM-DD`) of the last digest already handled for this channel, if any. */
  readonly lastSentDate: string | undefined;
}

export interface DigestDue {
  readonly due: boolean;
  /** Today's local date: the digest this decision is about. */
  readonly date: string;
}

/**
 * Whether today's digest is due: the local time of day has reached the
 * configured time and today's digest was not handled yet. Pure, so a test (or a
 * restart) can decide it from the clock alone. A digest missed yesterday is
 * never due today: after midnight only today's counts. On a DST spring-forward
 * day a time inside the skipped hour becomes due at the first minute after it.
 */
export function digestDue(input: DigestDueInput): DigestDue {
  const local = localTime(input.now, input.timeZone);
  return {
    due: local.minuteOfDay >= input.minuteOfDay && input.lastSentDate !== local.date,
    date: local.date,
  };
}
