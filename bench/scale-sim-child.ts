/**
 * The simulator for bench/scale.ts, in its own process so the bot process's CPU and
 * memory are measured alone: `count` projects, each with its own Pro key, and 1% of the
 * requests held for 5 s (a slow request, as in issue 14). With `supportersPerMinute` new
 * supporters arrive at random projects on the real clock (the bot's delivery pipeline then posts).
 *
 * It watches the replies it sends, as the platform would see the bot: when every feed of every
 * project was first answered (the first polls), and when each project's fundings list was read
 * afresh (its first page: the poll interval the bot keeps).
 *
 * Sends `{ url, keys }` to the parent over IPC, then answers `{ ask: 'stats' }` and
 * `{ ask: 'fundingsIntervals', from, to }` and `{ ask: 'fullAt' }`; exits when the parent disconnects.
 */
import { systemClock } from '../src/lib/clock.js';
import { seededRandom } from '../src/lib/random.js';
import { startSimulator } from '../src/simulator/index.js';
import { type ScaleSimOptions, SimWatch } from './scale-sim-watch.js';
import { shiftedToAfterMidnight } from './shifted-clock.js';

const count = Number(process.argv[2] ?? 1000);
/** The parent's clock shift (bench/scale.ts: the run starts just after a UTC midnight; see ScaleSimOptions.realClock). */
const offsetMs = Number(process.argv[3] ?? 0);
const options = JSON.parse(process.argv[4] ?? '{}') as ScaleSimOptions;
const clock = options.realClock ? systemClock : shiftedToAfterMidnight(offsetMs);
const supportersEach = options.supportersEach ?? 30;
const slowShare = 0.01;
const slowMs = 5_000;
const now = clock.now();
const watch = new SimWatch(count);
const sim = await startSimulator({
  clock,
  seed: 14,
  projects: Array.from({ length: count }, (_, i) => ({
    linkCaption: `project-${i}`,
    ownerId: 1_000 + i,
    supporters: Array.from({ length: supportersEach }, (_, j) => ({
      at: now - 86_400_000 + j * Math.min(60_000, 86_400_000 / supportersEach),
      amount: 10,
    })),
  })),
  ...(options.realClock ? { rateLimitDayOffsetMs: offsetMs } : {}),
  onReply: (reply) => watch.served(reply, Date.now()),
});
const keys = Array.from({ length: count }, (_, i) => sim.issueProjectKey(`project-${i}`));
// 1% of the requests held 5 s by the simulator itself (a proxy hop in front of it, as before, doubled
// the simulator's HTTP work: a third of the two cores' CPU at the fleet's first polls, bench scaleRedis).
sim.faults.injectRandomSlow(slowShare, slowMs);

const perMinute = options.supportersPerMinute ?? 0;
let added = 0;
if (perMinute > 0) {
  const random = seededRandom(33);
  setInterval(() => {
    sim.project(`project-${Math.floor(random.next() * count)}`).addSupporter({ amount: 10 });
    added += 1;
  }, 60_000 / perMinute);
}

process.send?.({ url: sim.url, keys });
process.on('message', (message: { ask?: string; from?: number; to?: number }) => {
  if (message.ask === 'stats') {
    const cpu = process.cpuUsage();
    process.send?.({
      requests: sim.requests.length,
      slowed: sim.faults.stats.applied['random-slow'],
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      supportersAdded: added,
      ...watch.firstPolls(),
    });
  }
  if (message.ask === 'fullAt') process.send?.(watch.fullAt());
  if (message.ask === 'fundingsIntervals') {
    process.send?.(watch.fundingsIntervals(message.from ?? 0, message.to ?? Date.now()));
  }
});
process.on('disconnect', () => {
  void sim.close().then(() => process.exit(0));
});
