/**
 * The simulator for bench/scale.ts, in its own process so the bot process's CPU and
 * memory are measured alone: `count` projects, each with its own Pro key, and 1% of the
 * requests held for 5 s (a slow request, as in issue 14).
 * Sends `{ url, keys }` to the parent over IPC; exits when the parent disconnects.
 */
import { startSimulator } from '../src/simulator/index.js';
import { shiftedToAfterMidnight } from './shifted-clock.js';

const count = Number(process.argv[2] ?? 1000);
/** The parent's clock shift (bench/scale.ts: the run starts just after a UTC midnight). */
const offsetMs = Number(process.argv[3] ?? 0);
const clock = shiftedToAfterMidnight(offsetMs);
const slowShare = 0.01;
const slowMs = 5_000;
const now = clock.now();
const sim = await startSimulator({
  clock,
  seed: 14,
  projects: Array.from({ length: count }, (_, i) => ({
    linkCaption: `project-${i}`,
    ownerId: 1_000 + i,
    supporters: Array.from({ length: 30 }, (_, j) => ({ at: now - 86_400_000 + j * 60_000, amount: 10 })),
  })),
});
const keys = Array.from({ length: count }, (_, i) => sim.issueProjectKey(`project-${i}`));
// 1% of the requests held 5 s by the simulator itself (a proxy hop in front of it, as before, doubled
// the simulator's HTTP work: a third of the two cores' CPU at the fleet's first polls, bench scaleRedis).
sim.faults.injectRandomSlow(slowShare, slowMs);
process.send?.({ url: sim.url, keys });
process.on('message', (message) => {
  if (message === 'stats') {
    const cpu = process.cpuUsage();
    process.send?.({
      requests: sim.requests.length,
      slowed: sim.faults.stats.applied['random-slow'],
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    });
  }
});
process.on('disconnect', () => {
  void sim.close().then(() => process.exit(0));
});
