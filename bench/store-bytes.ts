import { type KeyValueStore, memoryStore } from '../src/lib/store.js';
import { startBigProject } from './big-project.js';
import type { BenchSection } from './section.js';

/** A store that counts what is written through it: bytes as JSON, per key shape, and the largest value. */
export interface ByteCountingStore extends KeyValueStore {
  /** Bytes written since start (or the last {@link ByteCountingStore.reset}). */
  written(): number;
  /** Writes since start (or the last reset). */
  writes(): number;
  /** Bytes written per key shape (the project's name and numbers replaced), largest first. */
  byShape(): Record<string, number>;
  /** The largest single value written since start, in bytes. */
  largestValue(): number;
  reset(): void;
}

const shapeOf = (key: string) => key.replace(/^engine\/[^/]+\//, 'engine/*/').replace(/\d+/g, 'N');

export function byteCountingStore(inner: KeyValueStore): ByteCountingStore {
  let bytes = 0;
  let count = 0;
  let largest = 0;
  const shapes = new Map<string, number>();
  return {
    get: (key, schema) => inner.get(key, schema),
    getMany: (keys, schema) => inner.getMany(keys, schema),
    async set(key, value, ttl) {
      const size = Buffer.byteLength(JSON.stringify(value) ?? '');
      bytes += size;
      count += 1;
      largest = Math.max(largest, size);
      shapes.set(shapeOf(key), (shapes.get(shapeOf(key)) ?? 0) + size);
      await inner.set(key, value, ttl);
    },
    delete: (key) => inner.delete(key),
    setIfAbsent: (key, value, ttl) => inner.setIfAbsent(key, value, ttl),
    deleteIfValue: (key, expected) => inner.deleteIfValue(key, expected),
    deletePrefix: (prefix) => inner.deletePrefix(prefix),
    close: () => inner.close(),
    written: () => bytes,
    writes: () => count,
    largestValue: () => largest,
    byShape: () => Object.fromEntries([...shapes].sort((a, b) => b[1] - a[1])),
    reset() {
      bytes = 0;
      count = 0;
      largest = 0;
      shapes.clear();
    },
  };
}

/**
 * Bytes written per idle poll on a project with `supporters` supporters: after a baseline and
 * a day of activity that fills the windows and the seen-key set, every feed is made due with
 * nothing new; what the store receives, divided by the polls made (one request each).
 */
export async function measureIdlePollBytes(
  supporters: number,
): Promise<{ bytesPerIdlePoll: number; idlePolls: number; largestValue: number }> {
  const store = byteCountingStore(memoryStore());
  const { clock, sim, engine, close } = await startBigProject({
    supporters,
    seed: 11,
    plan: 'enterprise',
    store,
  });
  // Two idle hours settle what the activity left (moving averages, the last history point).
  for (let i = 0; i < 2; i++) {
    clock.advance(3_600_000);
    await engine.runDue();
  }
  const largestValue = store.largestValue();
  store.reset();
  const requestsBefore = sim.requests.length;
  for (let i = 0; i < 5; i++) {
    clock.advance(3_600_000); // every feed is due; nothing is new
    await engine.runDue();
  }
  const idlePolls = sim.requests.length - requestsBefore;
  const bytesPerIdlePoll = Math.round(store.written() / Math.max(1, idlePolls));
  await close();
  return { bytesPerIdlePoll, idlePolls, largestValue };
}

let day: ByteCountingStore | undefined;
let dayDetails: Record<string, unknown> = {};

/**
 * Store bytes: what the engine writes per idle poll (at 100,000 supporters, target <= 4 KB)
 * and per project over the launch day (target <= 50 MB), with the largest single value
 * written (which must not grow with the list).
 */
export const storeBytesSection: BenchSection = {
  name: 'store-bytes',
  campaign: {
    wrapStore(store) {
      day = byteCountingStore(store);
      return day;
    },
    figures(ctx) {
      const hours = (ctx.end - ctx.start) / 3_600_000;
      const perDay = ((day?.written() ?? 0) * 24) / Math.max(1, hours);
      // The campaign's own `details` win over a section's: these ride along with `run`'s.
      dayDetails = {
        storeWritesPerDay: Math.round(((day?.writes() ?? 0) * 24) / Math.max(1, hours)),
        storeLargestValueDay: day?.largestValue() ?? 0,
        storeBytesByKey: day?.byShape() ?? {},
      };
      return { storeBytesPerDay: Math.round(perDay) };
    },
  },
  async run() {
    const idle = await measureIdlePollBytes(100_000);
    return {
      storeBytesPerIdlePoll: idle.bytesPerIdlePoll,
      details: { ...dayDetails, storeIdlePolls: idle.idlePolls, storeLargestValue100k: idle.largestValue },
    };
  },
};
