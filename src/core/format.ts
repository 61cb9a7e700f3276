import type { Locale } from './command-core.js';

const intlLocale: Readonly<Record<Locale, string>> = { en: 'en-US', de: 'de-DE' };

/** Money in the project's currency; an unknown currency code falls back to "1,234.00 XYZ". */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  try {
    return new Intl.NumberFormat(intlLocale[locale], {
      style: 'currency',
      currency,
      maximumFractionDigits: 2,
    }).format(amount);
  } catch {
    return `${formatNumber(amount, locale, 2)} ${currency.slice(0, 8)}`;
  }
}

export function formatNumber(value: number, locale: Locale, maxFractionDigits = 0): string {
  return new Intl.NumberFormat(intlLocale[locale], { maximumFractionDigits: maxFractionDigits }).format(
    value,
  );
}

export function formatPercent(percent: number, locale: Locale): string {
  return `${formatNumber(percent, locale, percent < 10 ? 1 : 0)} %`.replace(
    locale === 'en' ? ' %' : '\u0000',
    '%',
  );
}

/** Share of the goal in percent; 0 when there is no goal. */
export function percentOfGoal(funding: number, goal: number): number {
  return goal > 0 ? (funding / goal) * 100 : 0;
}

/** A text progress bar, capped at full: "▰▰▰▰▰▱▱▱▱▱". */
export function progressBar(percent: number, width = 10): string {
  const filled = Math.max(0, Math.min(width, Math.round((percent / 100) * width)));
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}

export function formatDateTime(epochMs: number, locale: Locale, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(intlLocale[locale], {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs);
}

export function formatDate(epochMs: number, locale: Locale, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'medium', timeZone }).format(epochMs);
}

/** "5 minutes ago" / "vor 5 Minuten". */
export function formatAge(ageMs: number, locale: Locale): string {
  const rtf = new Intl.RelativeTimeFormat(intlLocale[locale], { numeric: 'auto' });
  const seconds = Math.round(ageMs / 1000);
  if (seconds < 60) return rtf.format(-seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return rtf.format(-hours, 'hour');
  return rtf.format(-Math.round(hours / 24), 'day');
}
