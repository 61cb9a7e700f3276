import type { Catalog } from './i18n/catalog.js';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** "~3 days", "~5 hours", "~40 minutes" or "more than a year": an estimate, so rounded and marked. */
export function formatEstimate(ms: number, t: Catalog): string {
  if (ms >= 365 * dayMs) return t.units.moreThanAYear;
  if (ms >= 48 * hourMs) return `~${t.units.days(Math.round(ms / dayMs))}`;
  if (ms >= hourMs) return `~${t.units.hours(Math.round(ms / hourMs))}`;
  return `~${t.units.minutes(Math.max(1, Math.round(ms / minuteMs)))}`;
}

/** An exact interval such as a poll interval: "30 seconds", "5 minutes". */
export function formatInterval(ms: number, t: Catalog): string {
  if (ms < minuteMs) return t.units.seconds(Math.round(ms / 1000));
  if (ms < hourMs) return t.units.minutes(Math.round(ms / minuteMs));
  if (ms < dayMs) return t.units.hours(Math.round(ms / hourMs));
  return t.units.days(Math.round(ms / dayMs));
}

/** The span a rate is measured over: "24 hours" rather than "1 day", up to two days. */
export function formatWindow(ms: number, t: Catalog): string {
  if (ms >= hourMs && ms <= 2 * dayMs) return t.units.hours(Math.round(ms / hourMs));
  return formatInterval(ms, t);
}
