import { describe, expect, it } from 'vitest';
import { SeenKeys } from '../../../src/engine/lists/list-seen-keys.js';
import {
  chunkBy,
  digestOf,
  planChunks,
  type StoredChunk,
} from '../../../src/engine/state/project-state-chunks.js';

function seenSet(n: number): SeenKeys {
  const set = new SeenKeys();
  for (let i = 0; i < n; i++) set.add(1_772_000_000 + Math.floor(i / 3), 100_000 + ((i * 7919) % 1_000_003));
  return set;
}

describe('content-defined chunks', () => {
  it('the seen-key chunks concatenate to the set, and one new key changes one or two chunks', () => {
    const set = seenSet(20_000);
    const chunks = set.packChunks(256);
    expect(chunks.length).toBeGreaterThan(20_000 / 256 / 3);
    expect(SeenKeys.unpackChunks(chunks).pack()).toBe(set.pack());
    set.add(1_772_003_000, 42); // a late supporter deep in the set
    const after = set.packChunks(256);
    const before = new Set(chunks);
    expect(after.filter((c) => !before.has(c)).length).toBeLessThanOrEqual(2);
    expect(Math.max(...after.map((c) => c.length))).toBeLessThan(6_000); // bounded whatever the set's size
  });

  it('a window that gains entries at one end and loses them at the other rewrites only its end chunks', () => {
    const window = Array.from({ length: 500 }, (_, i) => ({ id: 10_000 - i }));
    const chunks = chunkBy(window, (e) => String(e.id), 16).map((c) => digestOf(c));
    const moved = [{ id: 10_002 }, { id: 10_001 }, ...window.slice(0, 498)];
    const next = chunkBy(moved, (e) => String(e.id), 16).map((c) => digestOf(c));
    const old = new Set(chunks);
    expect(next.filter((d) => !old.has(d)).length).toBeLessThanOrEqual(2);
  });

  it('a changed chunk is planned into the slot the stored head does not reference; unchanged ones are kept', () => {
    const stored: StoredChunk[] = [
      { id: 0, slot: 'a', digest: 'x' },
      { id: 1, slot: 'b', digest: 'y' },
      { id: 2, slot: 'a', digest: undefined },
    ];
    const plan = planChunks(stored, ['y', 'z', 'w', 'v']);
    expect(plan.refs[0]).toEqual({ id: 1, slot: 'b' }); // unchanged: no write
    for (const write of plan.writes) {
      const referenced = stored.find((c) => c.id === write.id);
      expect(write.slot).not.toBe(referenced?.slot);
    }
    expect(plan.writes).toHaveLength(3);
    expect(new Set(plan.refs.map((r) => r.id)).size).toBe(4);
  });

  it('digests ignore the order of object keys', () => {
    expect(digestOf({ a: 1, b: { c: 2, d: 3 } })).toBe(digestOf({ b: { d: 3, c: 2 }, a: 1 }));
    expect(digestOf({ a: 1 })).not.toBe(digestOf({ a: 2 }));
  });
});
