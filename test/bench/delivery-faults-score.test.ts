import { describe, expect, it } from 'vitest';
import { maxChannelStallMs, scoreChannel } from '../../bench/delivery-faults/score.js';

/** The deliveryFaults judge: its figures must count what the channel shows, not how a message spells it. */
describe('deliveryFaults judge', () => {
  const arrivals = [
    { name: 'Fan 0001', at: 1_000 },
    { name: 'Fan 0002', at: 2_000 },
  ];

  it('a message that repeats a name (notification text and blocks) names that supporter once', () => {
    const score = scoreChannel(arrivals, [
      { at: 3_000, text: '🎉 New supporter: Fan 0001\n🎉 New supporter: Fan 0001' },
      { at: 4_000, text: '🎉 New supporter: Fan 0002' },
    ]);
    expect(score).toMatchObject({ duplicates: 0, misses: 0, unnamedSupporters: 0 });
  });

  it('two messages naming one supporter are a duplicate; a name in none is a miss', () => {
    const score = scoreChannel(arrivals, [
      { at: 3_000, text: 'New supporter: Fan 0001' },
      { at: 5_000, text: 'New supporter: Fan 0001' },
    ]);
    expect(score).toMatchObject({ duplicates: 1, misses: 1, missedNames: ['Fan 0002'] });
  });

  it('a count with fewer names than it states leaves supporters unnamed', () => {
    const score = scoreChannel(arrivals, [{ at: 3_000, text: '🎉 2 new supporters: Fan 0001' }]);
    expect(score.unnamedSupporters).toBe(1);
  });

  it('a stall is the wait behind a fault beyond Retry-After; lost access is not a stall', () => {
    const landed = [{ at: 20_000, text: 'New supporter: Fan 0002' }];
    expect(maxChannelStallMs([{ at: 1_500, outcome: 'fault', names: ['Fan 0001'] }], landed, arrivals)).toBe(
      0,
    );
    expect(maxChannelStallMs([{ at: 3_000, outcome: 'fault', names: ['Fan 0001'] }], landed, arrivals)).toBe(
      17_000,
    );
    expect(
      maxChannelStallMs([{ at: 3_000, outcome: 'rate-limited', retryAfterMs: 5_000 }], landed, arrivals),
    ).toBe(12_000);
    expect(maxChannelStallMs([{ at: 3_000, outcome: 'no-access' }], landed, arrivals)).toBe(0);
    // Fan 0002's own post failed too: it waited for its own doubt, not behind Fan 0001's.
    expect(
      maxChannelStallMs(
        [
          { at: 3_000, outcome: 'fault', names: ['Fan 0001'] },
          { at: 2_500, outcome: 'fault', names: ['Fan 0002'] },
        ],
        landed,
        arrivals,
      ),
    ).toBe(0);
  });
});
