import type { Locale } from '../core/index.js';
import { formatClock, formatDayMonth, formatNumber, intlLocaleOf } from '../core/index.js';

/** A "nice" step (1, 2, 2.5, 5 × 10^n) so that about `count` steps cover `range`. */
export function niceStep(range: number, count: number): number {
  const rough = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / magnitude;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  return nice * magnitude;
}

/** Short money labels for the axis: "€12,500", "€1.5M", "12.500 €". */
export function axisMoney(amount: number, currency: string, locale: Locale, step: number): string {
  const compact = Math.abs(amount) >= 1_000_000;
  try {
    return new Intl.NumberFormat(intlLocaleOf(locale), {
      style: 'currency',
      currency,
      notation: compact ? 'compact' : 'standard',
      minimumFractionDigits: 0,
      maximumFractionDigits: compact || step < 1 ? 2 : 0,
    }).format(amount);
  } catch {
    return `${formatNumber(amount, locale, step < 1 ? 2 : 0)} ${currency.slice(0, 8)}`;
  }
}

/** "Mar 10" / "10. März", with the time of day for short ranges ("Mar 10, 17:00 CET"). */
export function dateLabel(at: number, locale: Locale, timeZone: string, withTime: boolean): string {
  const day = formatDayMonth(at, locale, timeZone);
  return withTime ? `${day}, ${formatClock(at, locale, timeZone)}` : day;
}
