import { z } from 'zod';
import type { KeyValueStore } from '../lib/store.js';

/**
 * The API drift watch's records in the store (issue 31: store access through ports), both without an expiry:
 * - `api/openapi/last`: the last fetched /openapi.json and when (openapi-drift.ts compares the next one with it);
 * - `api/openapi/last-change`: the last change reported, so `/status` still shows it after a restart
 *   (src/app/watch-api-drift.ts).
 */

/** Store key of the last fetched OpenAPI document. */
export const OPENAPI_STORE_KEY = 'api/openapi/last';
const LAST_CHANGE_KEY = 'api/openapi/last-change';

const storedDocSchema = z.object({ fetchedAt: z.number(), doc: z.unknown() });
const lastChangeSchema = z.object({ seenAt: z.number(), count: z.number(), summary: z.array(z.string()) });

export type StoredOpenApi = z.infer<typeof storedDocSchema>;
/** The last reported change: when, how many changes, and their first short lines. */
export type ApiDriftChange = z.infer<typeof lastChangeSchema>;

/** The last stored OpenAPI document, or undefined before the first check. */
export function readStoredOpenApi(
  store: KeyValueStore,
  key = OPENAPI_STORE_KEY,
): Promise<StoredOpenApi | undefined> {
  return store.get(key, storedDocSchema);
}

export function keepOpenApi(
  store: KeyValueStore,
  stored: StoredOpenApi,
  key = OPENAPI_STORE_KEY,
): Promise<void> {
  return store.set(key, stored);
}

export function readLastDriftChange(store: KeyValueStore): Promise<ApiDriftChange | undefined> {
  return store.get(LAST_CHANGE_KEY, lastChangeSchema);
}

export function keepLastDriftChange(store: KeyValueStore, change: ApiDriftChange): Promise<void> {
  return store.set(LAST_CHANGE_KEY, change);
}
