import type { KeyValueStore } from '../lib/store.js';

/**
 * The deliveries namespace as a whole (`deliveries/…`: delivery records, doubt looks, pacing markers, held
 * batches, daily-thread parents, corrections, direct-message marks). Each kind keeps its own keys in its own
 * module; an uninstall (src/app/forget-workspace.ts) removes every key of the namespace that names one of
 * `named` (a workspace's channel key fragments), whatever its kind. Returns the keys removed.
 */
export function forgetDeliveriesNaming(
  deliveriesStore: KeyValueStore,
  named: readonly string[],
): Promise<number> {
  return deliveriesStore.deletePrefix('', named);
}
