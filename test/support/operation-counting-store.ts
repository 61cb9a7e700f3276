import { countedStore } from '../../src/lib/counted-store.js';
import type { KeyValueStore } from '../../src/lib/store.js';

/** Store operations by kind, for the cost figures of a test or a benchmark. */
export interface OperationCounts {
  reads: number;
  writes: number;
  deletes: number;
}

/** {@link countedStore} with the counts kept, and a reset for a measured stretch. */
export function operationCountingStore(inner: KeyValueStore): KeyValueStore & {
  readonly counts: OperationCounts;
  reset(): void;
} {
  const counts: OperationCounts = { reads: 0, writes: 0, deletes: 0 };
  const counted = countedStore(inner, (operation) => {
    if (operation === 'read') counts.reads += 1;
    else if (operation === 'write') counts.writes += 1;
    else counts.deletes += 1;
  });
  return {
    ...counted,
    close: () => inner.close(),
    counts,
    reset() {
      counts.reads = 0;
      counts.writes = 0;
      counts.deletes = 0;
    },
  };
}
