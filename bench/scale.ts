import { parseProjectKey } from '../src/api/index.js';
import { createEngine } from '../src/engine/index.js';
import { seededRandom } from '../src/lib/random.js';
import { type KeyValueStore, memoryStore } from '../src/lib/store.js';
import { startSimulator } from '../src/simulator/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import type { BenchSection } from './section.js';
import { percentile } from './stats.js';
import { virtualClockClient } from './virtual-clock-client.js';

/** Remembers the serialized size of the latest value under each key: the state "as stored". */
function sizeRecordingStore(inner: KeyValueStore): KeyValueStore & { bytes(): number } {
  const sizes = new Map<string, number>();
  return {
    get: (key, schema) => inner.get(key, schema),
    async set(key, value, ttl) {
      sizes.set(key, Buffer.byteLength(JSON.stringify(value)));
      await inner.set(key, value, ttl);
    },
    async delete(key) {
      sizes.delete(key);
      return inner.delete(key);
    },
    close: () => inner.close(),
    bytes: () => [...sizes.values()].reduce((a, b) => a + b, 0),
  };
}

/**
 * One project with `supporters` supporters (and 300 wall posts): the engine's
 * stored state after a baseline and some activity, and the CPU time of one idle
 * cycle (every feed due, nothing new), median of several. The process's CPU
 * includes the in-process simulator, whose pages cost O(limit), not O(list).
 */
export async function measureScale(supporters: number): Promise<{ stateMb: number; idleCycleCpuMs: number }> {
  const start = Date.UTC(2026, 2, 3, 9, 0, 0);
  const clock = new ManualClock(start);
  const lc = 'big-project';
  const sim = await startSimulator({
    clock,
    seed: 9,
    projects: [
      {
        linkCaption: lc,
        title: 'Big project',
        currency: 'EUR',
        fundingThreshold: 1_000_000,
        ownerId: 1,
        supporters: Array.from({ length: supporters }, (_, i) => ({
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
  const key = parseProjectKey(sim.issueProjectKey(lc));
  const api = virtualClockClient(sim.url, clock);
  const store = sizeRecordingStore(memoryStore());
  const engine = createEngine({
    api,
    store,
    clock,
    random: seededRandom(2),
    projects: [{ linkCaption: lc, key }],
    deliver: async () => {},
  });
  await engine.runDue();
  const project = sim.project(lc);
  // Activity fills the windows to their bound.
  for (let round = 0; round < 12; round++) {
    for (let i = 0; i < 60; i++) project.addSupporter({ amount: 10, at: clock.now() - 60_000 + i * 100 });
    project.addWallPost({ message: `more ${round}` });
    clock.advance(3_600_000);
    await engine.runDue();
  }
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    clock.advance(3_600_000); // every feed is due; nothing is new
    const before = process.cpuUsage();
    await engine.runDue();
    const used = process.cpuUsage(before);
    samples.push((used.user + used.system) / 1000);
  }
  const stateMb = Math.round((store.bytes() / 1_048_576) * 1000) / 1000;
  await engine.stop();
  await api.close();
  await sim.close();
  return { stateMb, idleCycleCpuMs: Math.round(percentile(samples, 50) * 100) / 100 };
}

/** State size and idle-cycle CPU at 100,000 supporters, with 1,000 for comparison. */
export const scaleSection: BenchSection = {
  name: 'scale',
  async run() {
    const small = await measureScale(1_000);
    const big = await measureScale(100_000);
    return {
      stateMb100k: big.stateMb,
      idleCycleCpuMs100k: big.idleCycleCpuMs,
      details: { stateMb1k: small.stateMb, idleCycleCpuMs1k: small.idleCycleCpuMs },
    };
  },
};
