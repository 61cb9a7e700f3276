/**
 * Wall-clock time in an IANA time zone, from Intl alone: no time-zone library,
 * and DST handled by the platform's tz database.
 */

export interface LocalTime {
  /** The local calendar date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Minutes since local midnight, 0..1439. */
  readonly minuteOfDay: number;
}

// Formatters are costly to build and immutable, so one per time zone is kept (a cache of pure
// functions, not shared mutable state).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local date and time of day of `epochMs` in `timeZone`. Throws a RangeError for an unknown zone. */
export function localTime(epochMs: number, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(epochMs)) parts[part.type] = part.value;
  const hour = Number(parts['hour']) % 24;
  return {
    date: `${parts['year']}-${parts['month']}-${parts['day']}`,
    minuteOfDay: hour * 60 + Number(parts['minute']),
  };
}

/** Checks an IANA zone name up front, so a typo fails at start-up with a fix, not at 09:00. */
export function assertTimeZone(timeZone: string): void {
  try {
    formatterFor(timeZone);
  } catch {
    throw new Error(
      `unknown time zone "${timeZone}": use an IANA name such as "Europe/Berlin" or "UTC" for the digest time zone`,
    );
  }
}

/** Parses `HH:MM` (24-hour) into minutes since midnight. */
export function parseTimeOfDay(time: string): number {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!match) {
    throw new Error(`invalid digest time "${time}": use 24-hour HH:MM, e.g. "09:00"`);
  }
  return Number(match[1]) * 60 + Number(match[2]);
}

/**
 * Epoch ms of local midnight at the start of `date` (`YYYY-MM-DD`) in `timeZone`: the UTC midnight of that date
 * moved by the zone's offset, corrected once more for a DST change between the two.
 */
export function startOfLocalDate(date: string, timeZone: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const wanted = Date.UTC(year, month - 1, day);
  let guess = wanted;
  for (let i = 0; i < 2; i += 1) {
    const local = localTime(guess, timeZone);
    const [y, m, d] = local.date.split('-').map(Number) as [number, number, number];
    guess += wanted - (Date.UTC(y, m - 1, d) + local.minuteOfDay * 60_000);
  }
  return guess;
}
