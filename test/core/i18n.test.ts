import { describe, expect, test } from 'vitest';
import { formatMoney } from '../../src/core/format.js';
import { de } from '../../src/core/i18n/de.js';
import { en } from '../../src/core/i18n/en.js';
import { localeFromTag } from '../../src/core/i18n/index.js';
import { plural } from '../../src/core/i18n/plural.js';

/** Every leaf path of a catalog, with the kind of value there. */
function shape(value: unknown, path = ''): string[] {
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => shape(v, `${path}.${k}`));
  }
  return [`${path}:${typeof value}`];
}

describe('i18n', () => {
  test('German has exactly the keys of English (also enforced by the Catalog type)', () => {
    expect(shape(de)).toEqual(shape(en));
  });

  test('plural forms follow Intl.PluralRules', () => {
    expect(plural('en', 1, { one: 'one', other: 'other' })).toBe('one');
    expect(plural('en', 0, { one: 'one', other: 'other' })).toBe('other');
    expect(en.units.days(1)).toBe('1 day');
    expect(de.units.days(3)).toBe('3 Tagen');
    expect(en.notices.supporterBurst(1, '1')).toBe('🎉 1 new supporter');
  });

  test('platform locale tags map to fundbot locales', () => {
    expect(localeFromTag('de-AT')).toBe('de');
    expect(localeFromTag('en-GB')).toBe('en');
    expect(localeFromTag('fr')).toBeUndefined();
    expect(localeFromTag(undefined)).toBeUndefined();
  });

  test('money: whole amounts without cents, others with two digits, unknown currency as code', () => {
    const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(formatMoney(12_345, 'EUR', 'en')).toBe('€12,345');
    expect(plain(formatMoney(12_345, 'EUR', 'de'))).toBe('12.345 €');
    expect(plain(formatMoney(12.5, 'EUR', 'de'))).toBe('12,50 €');
    expect(formatMoney(3, 'USD', 'en')).toBe('$3');
    expect(formatMoney(3.5, 'NOT-A-CODE', 'en')).toBe('3.5 NOT-A-CO');
  });
});
