import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';

/**
 * A memory store whose writes can be refused, as on a full disk (reads still work), and which counts the
 * writes that landed per key.
 */
export function refusableStore(): KeyValueStore & { refuseWrites: boolean; writes: Map<string, number> } {
  const inner = memoryStore();
  const store = {
    refuseWrites: false,
    writes: new Map<string, number>(),
    get: inner.get.bind(inner),
    getMany: inner.getMany.bind(inner),
    delete: inner.delete.bind(inner),
    setIfAbsent: inner.setIfAbsent.bind(inner),
    deleteIfValue: inner.deleteIfValue.bind(inner),
    deletePrefix: inner.deletePrefix.bind(inner),
    close: inner.close.bind(inner),
    async set(key: string, value: unknown, ttlMs?: number) {
      if (store.refuseWrites) throw new Error('SQLITE_FULL: database or disk is full');
      store.writes.set(key, (store.writes.get(key) ?? 0) + 1);
      await inner.set(key, value, ttlMs);
    },
  };
  return store;
}
