import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, zoneName } from '../../src/core/time-format.js';

const winter = Date.UTC(2026, 0, 15, 16, 10);
const summer = Date.UTC(2026, 6, 15, 16, 10);

describe('the one time formatter', () => {
  it.each([
    ['en', 'Europe/Berlin', winter, '17:10 CET'],
    ['en', 'Europe/Berlin', summer, '18:10 CEST'],
    ['de', 'Europe/Berlin', winter, '17:10 MEZ'],
    ['de', 'Europe/Berlin', summer, '18:10 MESZ'],
    ['en', 'UTC', winter, '16:10 UTC'],
    ['de', 'UTC', winter, '16:10 UTC'],
    ['en', 'America/New_York', winter, '11:10 EST'],
    ['en', 'Europe/London', summer, '17:10 BST'],
    ['en', 'Asia/Tokyo', winter, '01:10 GMT+9'],
    ['de', 'America/New_York', summer, '12:10 GMT-4'],
  ] as const)('%s in %s: %s', (locale, zone, at, expected) => {
    expect(formatClock(at, locale, zone)).toBe(expected);
  });

  it('is 24-hour in every language (never "5:10 PM" beside "17:10")', () => {
    expect(formatClock(winter, 'en', 'UTC')).not.toMatch(/AM|PM/);
    expect(formatDateTime(winter, 'en', 'Europe/Berlin')).toBe('Jan 15, 2026, 17:10 CET');
    expect(formatDateTime(winter, 'de', 'Europe/Berlin')).toBe('15.01.2026, 17:10 MEZ');
  });

  it('dates follow the zone: 23:30 UTC is already the next day in Berlin', () => {
    const lateUtc = Date.UTC(2026, 0, 15, 23, 30);
    expect(formatDate(lateUtc, 'en', 'UTC')).toBe('Jan 15, 2026');
    expect(formatDate(lateUtc, 'en', 'Europe/Berlin')).toBe('Jan 16, 2026');
  });

  it('names a zone the language has no abbreviation for by its offset', () => {
    expect(zoneName(winter, 'en', 'Asia/Kolkata')).toBe('GMT+5:30');
  });
});
