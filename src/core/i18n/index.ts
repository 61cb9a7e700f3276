import type { Locale } from '../command-core.js';
import type { Catalog } from './catalog.js';
import { de } from './de.js';
import { en } from './en.js';

export type { Catalog } from './catalog.js';

/** The locales fundbot speaks, in the order /language offers them. */
export const locales: readonly Locale[] = ['en', 'de'];

const catalogs: Readonly<Record<Locale, Catalog>> = { en, de };

export function catalogFor(locale: Locale): Catalog {
  return catalogs[locale];
}

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'de';
}

/**
 * Maps a platform locale tag ('de', 'de-AT', 'en-US', Discord's 'en-GB') to a
 * fundbot locale, or undefined when fundbot does not speak it.
 */
export function localeFromTag(tag: string | undefined): Locale | undefined {
  if (!tag) return undefined;
  const language = tag.toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : undefined;
}
