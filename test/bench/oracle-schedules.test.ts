import { describe, expect, it } from 'vitest';
import { oracleSchedules } from '../../bench/oracle-schedules.js';

describe('the oracle schedules of the key alone (docs/latency-bound.md)', () => {
  it('spend the uniform poller reads; on a flat day knowing the curve buys nothing', () => {
    const flat = oracleSchedules('flat');
    expect(flat['reads']).toBe(6_311);
    expect(flat['sqrtRate']).toMatchObject({ p95VsUniform: 1, meanVsUniform: 1 });
    // A uniform schedule of 6,311 reads a day waits at most 13.7 s: its p95 is 0.95 of that.
    expect((flat['uniform'] as { p95Ms: number }).p95Ms).toBeGreaterThan(12_500);
    expect((flat['uniform'] as { p95Ms: number }).p95Ms).toBeLessThan(13_700);
  });

  it('on the daily curve the square-root schedule lowers the mean, the quiet cut the p95, neither both', () => {
    const curve = oracleSchedules('launch-day') as Record<
      string,
      { p95VsUniform: number; meanVsUniform: number }
    >;
    expect(curve['sqrtRate']?.meanVsUniform).toBeLessThan(0.8);
    expect(curve['quietCut']?.p95VsUniform).toBeLessThan(0.8);
    expect(curve['sqrtRate']?.meanVsUniform).toBeGreaterThan(0.7);
    expect(curve['quietCut']?.meanVsUniform).toBeGreaterThan(0.7);
  });
});
