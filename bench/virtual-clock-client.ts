import { type ApiClient, createApiClient } from '../src/api/index.js';
import { seededRandom } from '../src/lib/random.js';
import type { ManualClock } from '../test/support/manual-clock.js';

/**
 * An API client for a simulation on a virtual clock. The engine schedules every
 * retry itself, so the client must neither sleep on a 429 nor retry a 5xx: on a
 * clock that only moves when told, either would stall or distort the figures.
 */
export function virtualClockClient(baseUrl: string, clock: ManualClock): ApiClient {
  return createApiClient({ baseUrl, clock, random: seededRandom(1), maxRetries: 0, maxRateLimitRetries: 0 });
}
