import type { KeyValueStore } from './store-port.js';

export type StoreOperationKind = 'read' | 'write' | 'delete';

/**
 * A store view that tells `count` about every operation made through it: the delivery
 * pipeline's reads and writes per notice are counted where its cost lands, at the store
 * it is given (`fundbot_delivery_store_operations_total`). Costs nothing else.
 */
export function countedStore(
  inner: KeyValueStore,
  count: (operation: StoreOperationKind) => void,
): KeyValueStore {
  return {
    get(key, schema) {
      count('read');
      return inner.get(key, schema);
    },
    getMany(keys, schema) {
      // One operation at the store (one MGET or SELECT per batch), as one get is.
      count('read');
      return inner.getMany(keys, schema);
    },
    set(key, value, ttl) {
      count('write');
      return inner.set(key, value, ttl);
    },
    delete(key) {
      count('delete');
      return inner.delete(key);
    },
    setIfAbsent(key, value, ttlMs) {
      count('write');
      return inner.setIfAbsent(key, value, ttlMs);
    },
    deleteIfValue(key, expected) {
      count('delete');
      return inner.deleteIfValue(key, expected);
    },
    deletePrefix(prefix, containing) {
      count('delete');
      return inner.deletePrefix(prefix, containing);
    },
    // A view does not own the connection.
    close: async () => {},
  };
}
