import { describe, expect, it } from 'vitest';
import { digestDue } from '../../src/digest/index.js';
import { HOUR } from './campaign-fixtures.js';
import { berlinNine, MINUTE } from './helpers/scheduler-setup.js';

describe('digestDue', () => {
  const due = (now: number, time: number, lastSentDate?: string) =>
    digestDue({ now, timeZone: 'Europe/Berlin', minuteOfDay: time, lastSentDate });

  it('is due from the configured local time, not the UTC time', () => {
    expect(due(berlinNine(10) - MINUTE, 9 * 60)).toEqual({ due: false, date: '2026-03-10' });
    expect(due(berlinNine(10), 9 * 60)).toEqual({ due: true, date: '2026-03-10' });
  });

  it('is not due again on the day it was sent, and due again the next day', () => {
    expect(due(berlinNine(10) + 5 * HOUR, 9 * 60, '2026-03-10').due).toBe(false);
    expect(due(berlinNine(11), 9 * 60, '2026-03-10').due).toBe(true);
  });

  it('follows the DST switch: 09:00 is 08:00 UTC before and 07:00 UTC after 29 March', () => {
    expect(due(Date.UTC(2026, 2, 28, 7, 59), 9 * 60).due).toBe(false);
    expect(due(Date.UTC(2026, 2, 28, 8, 0), 9 * 60).due).toBe(true);
    expect(due(Date.UTC(2026, 2, 29, 6, 59), 9 * 60).due).toBe(false);
    expect(due(Date.UTC(2026, 2, 29, 7, 0), 9 * 60).due).toBe(true);
  });

  it('fires a time inside the skipped DST hour at the first minute after it', () => {
    // 02:30 does not exist in Berlin on 29 March 2026: 01:59 CET is followed by 03:00 CEST.
    expect(due(Date.UTC(2026, 2, 29, 0, 59), 2 * 60 + 30).due).toBe(false);
    expect(due(Date.UTC(2026, 2, 29, 1, 0), 2 * 60 + 30)).toEqual({ due: true, date: '2026-03-29' });
  });

  it('is not due on the day of a subscription made after the time, and due the next day', () => {
    const base = { timeZone: 'Europe/Berlin', minuteOfDay: 9 * 60, lastSentDate: undefined };
    const subscribedAt = berlinNine(10) + 6 * HOUR;
    expect(digestDue({ ...base, now: berlinNine(10) + 7 * HOUR, subscribedAt }).due).toBe(false);
    expect(digestDue({ ...base, now: berlinNine(11), subscribedAt }).due).toBe(true);
    expect(digestDue({ ...base, now: berlinNine(10), subscribedAt: berlinNine(10) - MINUTE }).due).toBe(true);
  });

  it('counts the local date, which differs from the UTC date late in the evening', () => {
    // 23:30 UTC on 9 March is 00:30 on 10 March in Berlin.
    expect(due(Date.UTC(2026, 2, 9, 23, 30), 0).date).toBe('2026-03-10');
  });
});
