import { describe, expect, it } from 'vitest';
import { parseRateBudget } from '../../src/api/rate-budget.js';

const headers = (dayReset: string) => ({
  'x-ratelimit-day-limit': '10000',
  'x-ratelimit-day-remaining': '9000',
  'x-ratelimit-day-reset': dayReset,
  'x-ratelimit-minute-limit': '120',
  'x-ratelimit-minute-remaining': '100',
  'x-ratelimit-minute-reset': '1772485140',
});

describe('rate budget headers', () => {
  it('reads a whole-second reset timestamp', () => {
    expect(parseRateBudget(headers('1772485199'), 0)?.dayResetAt).toBe(1_772_485_199_000);
  });

  it('reads a reset timestamp with a fraction instead of dropping the whole budget', () => {
    const budget = parseRateBudget(headers('1772485199.877'), 0);
    expect(budget?.dayResetAt).toBe(1_772_485_199_877);
    expect(budget?.dayRemaining).toBe(9000);
  });

  it('a count that is not a whole number still voids the set: half a budget would mislead the scheduler', () => {
    expect(parseRateBudget({ ...headers('1772485199'), 'x-ratelimit-day-remaining': '9000.5' }, 0)).toBe(
      undefined,
    );
    expect(parseRateBudget(headers('soon'), 0)).toBe(undefined);
  });
});
