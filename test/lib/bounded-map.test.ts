import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/lib/bounded-map.js';

describe('mapBounded', () => {
  it('keeps at most the limit in flight and the results in the items’ order', async () => {
    let inFlight = 0;
    let most = 0;
    const items = Array.from({ length: 200 }, (_, i) => i);
    const results = await mapBounded(items, 16, async (i) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Later items finish sooner: order must come from the index, not from completion.
      await new Promise((resolve) => setTimeout(resolve, (200 - i) % 7));
      inFlight -= 1;
      return i * 2;
    });
    expect(results).toEqual(items.map((i) => i * 2));
    expect(most).toBe(16);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    await expect(
      mapBounded([1, 2, 3, 4, 5], 1, async (i) => {
        started.push(i);
        if (i === 2) throw new Error('the store did not answer');
        return i;
      }),
    ).rejects.toThrow('the store did not answer');
    expect(started).toEqual([1, 2]);
  });

  it('answers an empty list at once', async () => {
    expect(await mapBounded([], 8, async () => 1)).toEqual([]);
  });
});
