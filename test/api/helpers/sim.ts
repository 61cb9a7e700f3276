import {
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  type Page,
  type PageParams,
} from '../../../src/api/index.js';
import { seededRandom } from '../../../src/lib/random.js';
import { type Simulator, type SimulatorOptions, startSimulator } from '../../../src/simulator/index.js';
import { ManualClock } from '../../support/manual-clock.js';

export interface SimHarness {
  readonly sim: Simulator;
  readonly clock: ManualClock;
  readonly api: ApiClient;
  /** Another client on the same simulator (e.g. with other retry settings); closed with the harness. */
  client(options?: Partial<ApiClientOptions>): ApiClient;
  close(): Promise<void>;
}

/**
 * A simulator and a client sharing one ManualClock, so rate-limit windows,
 * Retry-After waits and backoff all run on virtual time.
 */
export async function startHarness(
  simOptions: SimulatorOptions = {},
  clientOptions: Partial<ApiClientOptions> = {},
): Promise<SimHarness> {
  const clock = new ManualClock();
  const sim = await startSimulator({ clock, seed: 7, ...simOptions });
  const clients: ApiClient[] = [];
  const client = (options: Partial<ApiClientOptions> = {}) => {
    const c = createApiClient({
      baseUrl: sim.url,
      clock,
      random: seededRandom(1),
      ...clientOptions,
      ...options,
    });
    clients.push(c);
    return c;
  };
  const api = client();
  return {
    sim,
    clock,
    api,
    client,
    async close() {
      for (const c of clients) await c.close();
      await sim.close();
    },
  };
}

/**
 * Reads a whole list with pages of 100 (one request per page). Plain offset paging: fine for
 * test data that does not change while it is read (the engine's list reader handles churn).
 */
export async function allPages<T>(readPage: (page: PageParams) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  for (;;) {
    const page = await readPage({ limit: 100, offset: out.length });
    out.push(...page.items);
    if (page.items.length === 0 || out.length >= page.meta.total) return out;
  }
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
