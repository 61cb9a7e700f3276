import { type ApiClient, createApiClient } from '../../src/api/index.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { ManualClock } from './manual-clock.js';

/**
 * The simulator the key-check tests read: two projects (`solar-kiosk`, `river-cleanup`) on a clock that
 * stands still, and an API client that does not retry (each check is exactly the requests it sends).
 */
export async function startKeyCheckSimulator(): Promise<{ sim: Simulator; api: ApiClient }> {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
  const sim = await startSimulator({
    clock,
    projects: [{ linkCaption: 'solar-kiosk' }, { linkCaption: 'river-cleanup' }],
  });
  return { sim, api: createApiClient({ baseUrl: sim.url, clock, maxRetries: 0 }) };
}
