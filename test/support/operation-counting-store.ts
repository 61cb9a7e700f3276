import type { KeyValueStore } from '../../src/lib/store.js';

/** Store operations by kind, for the cost figures of a test or a benchmark. */
export interface OperationCounts {
  reads: number;
  writes: number;
  deletes: number;
}

/**
 * A store that counts every operation made through it (reads, writes, deletes), where
 * the cost lands for a caller: a notice's reads and writes are those its pipeline makes.
 * Bytes and fsyncs on disk are measured on the real files by the benchmark.
 */
export function operationCountingStore(inner: KeyValueStore): KeyValueStore & {
  readonly counts: OperationCounts;
  reset(): void;
} {
  const counts: OperationCounts = { reads: 0, writes: 0, deletes: 0 };
  return {
    counts,
    reset() {
      counts.reads = 0;
      counts.writes = 0;
      counts.deletes = 0;
    },
    get(key, schema) {
      counts.reads += 1;
      return inner.get(key, schema);
    },
    set(key, value, ttl) {
      counts.writes += 1;
      return inner.set(key, value, ttl);
    },
    delete(key) {
      counts.deletes += 1;
      return inner.delete(key);
    },
    ...(inner.sweepExpired ? { sweepExpired: inner.sweepExpired.bind(inner) } : {}),
    close: () => inner.close(),
  };
}
