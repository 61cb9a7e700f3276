import type { Locale } from './command-core.js';
import type { ProgressBar } from './message.js';

const intlLocale: Readonly<Record<Locale, string>> = { en: 'en-US', de: 'de-DE' };

/**
 * Intl formatters are expensive to build (tens of microseconds each) and the
 * command core formats dozens of values per answer, so every formatter is built
 * once per (locale, options) and reused. The caches are bounded by the small set
 * of locales, currencies and digit counts fundbot uses; they hold no user data.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const relativeFormats = new Map<Locale, Intl.RelativeTimeFormat>();
const pluralRules = new Map<Locale, Intl.PluralRules>();

function numberFormat(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let format = numberFormats.get(key);
  if (!format) {
    format = make();
    numberFormats.set(key, format);
  }
  return format;
}

/** The BCP 47 tag fundbot formats a locale with. */
export function intlLocaleOf(locale: Locale): string {
  return intlLocale[locale];
}

/**
 * Money in the project's currency: whole amounts without cents ("€12,345"), others
 * with two digits ("€12.50"). An unknown currency code falls back to "1,234.5 XYZ".
 */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  const whole = Number.isInteger(Math.round(amount * 100) / 100);
  try {
    return numberFormat(
      `money|${locale}|${currency}|${whole}`,
      () =>
        new Intl.NumberFormat(intlLocale[locale], {
          style: 'currency',
          currency,
          minimumFractionDigits: whole ? 0 : 2,
          maximumFractionDigits: 2,
        }),
    ).format(amount);
  } catch {
    return `${formatNumber(amount, locale, 2)} ${currency.slice(0, 8)}`;
  }
}

export function formatNumber(value: number, locale: Locale, maxFractionDigits = 0): string {
  return numberFormat(
    `number|${locale}|${maxFractionDigits}`,
    () => new Intl.NumberFormat(intlLocale[locale], { maximumFractionDigits: maxFractionDigits }),
  ).format(value);
}

/**
 * The one percent rule: one decimal under 10 %, whole numbers above, always rounded
 * DOWN to the digits shown, so a figure never overstates ("99%" at 99.6 %, "100%" only
 * when the goal is reached) and every percent of one message agrees with the others.
 * Adapters never format a percent themselves: {@link ProgressBar.label} carries this one.
 */
export function formatPercent(percent: number, locale: Locale): string {
  const digits = Math.abs(percent) < 10 ? 1 : 0;
  const scale = 10 ** digits;
  // The small epsilon keeps 0.1 + 0.2 style float noise (29.999…) from flooring a whole step.
  const floored = Math.floor(percent * scale + 1e-9) / scale;
  return `${formatNumber(floored, locale, digits)} %`.replace(locale === 'en' ? ' %' : '\u0000', '%');
}

/** Share of the goal in percent; 0 when there is no goal. */
export function percentOfGoal(funding: number, goal: number): number {
  return goal > 0 ? (funding / goal) * 100 : 0;
}

/**
 * A text progress bar, capped at full: "▰▰▰▰▰▱▱▱▱▱". Filled cells are rounded down like
 * {@link formatPercent}: the bar is full only when the goal is reached.
 */
export function progressBar(percent: number, width = 10): string {
  const filled = Math.max(0, Math.min(width, Math.floor((percent / 100) * width + 1e-9)));
  return '▰'.repeat(filled) + '▱'.repeat(width - filled);
}

/** The progress toward a goal as the neutral model carries it, its label by the one percent rule. */
export function progressToward(current: number, goal: number, locale: Locale): ProgressBar {
  const percent = percentOfGoal(current, goal);
  return { current, goal, percent, label: formatPercent(percent, locale) };
}

/** "5 minutes ago" / "vor 5 Minuten". */
export function formatAge(ageMs: number, locale: Locale): string {
  let rtf = relativeFormats.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(intlLocale[locale], { numeric: 'auto' });
    relativeFormats.set(locale, rtf);
  }
  const seconds = Math.max(0, Math.round(ageMs / 1000));
  if (seconds < 60) return rtf.format(-seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return rtf.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 48) return rtf.format(-hours, 'hour');
  return rtf.format(-Math.round(hours / 24), 'day');
}

/** The CLDR plural category of `count` in `locale` ("one", "other", ...). */
export function pluralCategory(count: number, locale: Locale): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(intlLocale[locale]);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}
