import { parseProjectKey } from '../src/api/index.js';
import { createEngine, type Engine } from '../src/engine/index.js';
import { seededRandom } from '../src/lib/random.js';
import type { KeyValueStore } from '../src/lib/store.js';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { virtualClockClient } from './virtual-clock-client.js';

/** One big project on the simulator and an engine polling it, on a virtual clock. */
export interface BigProjectRun {
  readonly clock: ManualClock;
  readonly sim: Simulator;
  readonly engine: Engine;
  close(): Promise<void>;
}

const hourMs = 3_600_000;
/** Where the big project's virtual clock starts by default. */
export const bigProjectStart = Date.UTC(2026, 2, 3, 9, 0, 0);

/**
 * The project the state-size, idle-CPU and store-bytes figures are measured on: `supporters`
 * supporters over the last 30 days and 300 wall posts, read once by the engine (its baseline)
 * and then 12 hours of activity (60 supporters and a wall post an hour), which fill the windows
 * and the seen-key set to their bounds. What the engine writes goes to `store`.
 */
export async function startBigProject(input: {
  readonly supporters: number;
  readonly seed: number;
  readonly plan?: 'pro' | 'premium' | 'enterprise';
  readonly store: KeyValueStore;
  /** The virtual clock to run on (default a new one at 2026-03-03 09:00 UTC): given when the store needs it too. */
  readonly clock?: ManualClock;
}): Promise<BigProjectRun> {
  const clock = input.clock ?? new ManualClock(bigProjectStart);
  const start = clock.now();
  const lc = 'big-project';
  const sim = await startSimulator({
    clock,
    seed: input.seed,
    projects: [
      {
        linkCaption: lc,
        title: 'Big project',
        currency: 'EUR',
        fundingThreshold: 1_000_000,
        ownerId: 1,
        supporters: Array.from({ length: input.supporters }, (_, i) => ({
          at: start - 30 * 86_400_000 + i * 20_000,
          amount: 10,
        })),
        wallPosts: Array.from({ length: 300 }, (_, i) => ({
          message: `post ${i}`,
          at: start - 86_400_000 + i * 1_000,
        })),
      },
    ],
  });
  const key = parseProjectKey(sim.issueProjectKey(lc, input.plan ? { plan: input.plan } : {}));
  const api = virtualClockClient(sim.url, clock);
  const engine = createEngine({
    api,
    store: input.store,
    clock,
    random: seededRandom(2),
    projects: [{ linkCaption: lc, key }],
    deliver: async () => {},
  });
  await engine.runDue();
  const project = sim.project(lc);
  for (let round = 0; round < 12; round++) {
    for (let i = 0; i < 60; i++) project.addSupporter({ amount: 10, at: clock.now() - 60_000 + i * 100 });
    project.addWallPost({ message: `more ${round}` });
    clock.advance(hourMs);
    await engine.runDue();
  }
  return {
    clock,
    sim,
    engine,
    async close() {
      await engine.stop();
      await api.close();
      await sim.close();
    },
  };
}
