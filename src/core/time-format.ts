import type { Locale } from './command-core.js';
import { intlLocaleOf } from './format.js';

/**
 * The one place a time becomes text. Every time a message prints (batch titles,
 * quiet-hour summaries, /status, /blog, the digest, the chart) comes from here, so
 * they all agree: 24-hour clock in every language, always in the channel's IANA
 * zone and always with the zone's name ("17:10 CET", "17:10 MEZ", "11:10 EST",
 * "16:10 UTC"). A time without its zone is ambiguous in a team spread over zones,
 * and a bare UTC time read as local is an hour or two off.
 *
 * Which zone a channel's times use is the caller's business (the core passes the
 * channel's quiet-hours zone, else the configured digest zone); these functions are
 * pure: (instant, locale, zone) → text.
 */

/**
 * Where a language's own zone names fall short ("GMT+1" for Berlin in en-US), the
 * regional variant that has them ("CET" in en-GB) is asked next.
 */
const zoneNameLocales: Readonly<Record<Locale, readonly string[]>> = {
  en: ['en-US', 'en-GB'],
  de: ['de-DE'],
};

/** "GMT+1", "GMT-4:30", "UTC+2": an offset, not a name. */
const offsetName = /^(GMT|UTC)[+-−]/;

// Intl formatters cost tens of microseconds to build and are immutable: one per
// (kind, locale, zone), bounded by the zones the channels use.
const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: string, locale: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const key = `${kind}|${locale}|${timeZone}`;
  let formatter = formats.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, formatter);
  }
  return formatter;
}

/** The zone's short name at that instant ("CET" in winter, "CEST" in summer), else its offset ("GMT+9"). */
export function zoneName(epochMs: number, locale: Locale, timeZone: string): string {
  let fallback = '';
  for (const tag of zoneNameLocales[locale]) {
    const parts = format('zone', tag, timeZone, { timeZoneName: 'short' }).formatToParts(epochMs);
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (name !== '' && !offsetName.test(name)) return name;
    fallback ||= name;
  }
  return fallback || timeZone;
}

/** The time of day on the zone's clock, 24-hour: "17:10 CET" (en), "17:10 MEZ" (de). */
export function formatClock(epochMs: number, locale: Locale, timeZone: string): string {
  const clock = format('clock', intlLocaleOf(locale), timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(epochMs);
  return `${clock} ${zoneName(epochMs, locale, timeZone)}`;
}

/** The calendar date on the zone's clock, in the language's medium form: "Jan 15, 2026", "15.01.2026". */
export function formatDate(epochMs: number, locale: Locale, timeZone: string): string {
  return format('date', intlLocaleOf(locale), timeZone, { dateStyle: 'medium' }).format(epochMs);
}

/** Day and month only, for axis labels: "Mar 10", "10. März". */
export function formatDayMonth(epochMs: number, locale: Locale, timeZone: string): string {
  return format('day-month', intlLocaleOf(locale), timeZone, { month: 'short', day: 'numeric' }).format(
    epochMs,
  );
}

/** Date and time with the zone: "Jan 15, 2026, 17:10 CET", "15.01.2026, 17:10 MEZ". */
export function formatDateTime(epochMs: number, locale: Locale, timeZone: string): string {
  return `${formatDate(epochMs, locale, timeZone)}, ${formatClock(epochMs, locale, timeZone)}`;
}
