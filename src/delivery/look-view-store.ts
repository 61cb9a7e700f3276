import type { KeyValueStore } from '../lib/store.js';
import { type LookView, lookViewSchema } from './look-view.js';

/** A view is kept a day: longer than any doubt lasts. */
const viewTtlMs = 24 * 3_600_000;

/**
 * The doubt resolver's look views (doubt-resolver.ts): what the looks at one channel or thread have found, under
 * the resolver's view key (`delivery/look/<channel>[/<thread>]`, also its place in the look queue), for a day.
 */
export function createLookViews(store: KeyValueStore) {
  return {
    read: (key: string): Promise<LookView | undefined> => store.get(key, lookViewSchema),
    keep: (key: string, view: LookView): Promise<void> => store.set(key, view, viewTtlMs),
  };
}
