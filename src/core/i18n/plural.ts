import type { Locale } from '../command-core.js';
import { pluralCategory } from '../format.js';

/**
 * Picks the plural form for `count` with the locale's CLDR rules. English and
 * German only distinguish "one" and "other", but going through Intl.PluralRules
 * keeps a third language honest.
 */
export function plural(
  locale: Locale,
  count: number,
  forms: { readonly one: string; readonly other: string } & Partial<Record<Intl.LDMLPluralRule, string>>,
): string {
  const category = pluralCategory(count, locale);
  return forms[category] ?? forms.other;
}
