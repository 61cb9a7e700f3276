import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../src/lib/min-heap.js';

describe('MinHeap', () => {
  it('gives back any mix of pushes and pops in order, ties in the order the comparison says (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined })), (steps) => {
        // A number pushes (with its arrival as the tie-breaker), undefined pops.
        const heap = new MinHeap<[number, number]>((a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]));
        const model: [number, number][] = [];
        steps.forEach((step, arrival) => {
          if (step === undefined) {
            model.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
            expect(heap.pop()).toEqual(model.shift());
          } else {
            heap.push([step, arrival]);
            model.push([step, arrival]);
          }
          expect(heap.size).toBe(model.length);
          expect(heap.peek()?.[0]).toBe(model.length === 0 ? undefined : Math.min(...model.map((m) => m[0])));
        });
      }),
    );
  });

  it('is empty after clear', () => {
    const heap = new MinHeap<number>((a, b) => a < b);
    for (const n of [3, 1, 2]) heap.push(n);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
  });
});
