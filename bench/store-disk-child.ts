/**
 * The measured process of bench/store-disk.ts, run under strace: the engine on the real
 * default store (a SQLite file through openStore) on a virtual clock, so a day passes in a
 * minute and the store's checkpoints run on the same clock as the polls.
 *
 * `idle <dir>`: the big project (100,000 supporters, the figure the interface bench uses),
 * settled, then 4 virtual hours in which nothing happens, each feed polled when the plan says
 * (the engine's own next due time, not hour jumps), with the bot's store check writing every 10 s. The idle stretch is cut out of the strace log
 * by marker writes (`idle-start`, `idle-end`); writes `result.json` with the polls made.
 * `day <dir>`: the bench's launch day (bench/campaign-day.ts, without its naive pollers) with
 * this store in place of the memory one and the store check writing every 10 s; every byte of the
 * run counts, the baseline included.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Clock, systemClock } from '../src/lib/clock.js';
import { observedStore, openStore } from '../src/lib/store.js';
import { createStoreWatch, silentLogger, startStoreProbe } from '../src/ops/index.js';
import { ManualClock } from '../test/support/manual-clock.js';
import { bigProjectStart, startBigProject } from './big-project.js';
import { defaultCampaign, runCampaignDay } from './campaign-day.js';
import { RssPeak } from './stats.js';

const [mode, dir = ''] = process.argv.slice(2);
const database = join(dir, 'fundbot.sqlite');
const mark = (phase: string) => writeFileSync(join(dir, 'phase-marker'), phase);
const idleHours = 4;

if (mode === 'idle') {
  const clock = new ManualClock(bigProjectStart);
  const store = await openStore(`sqlite://${database}`, { clock });
  const watch = createStoreWatch({
    clock,
    logger: silentLogger,
    health: { recordStore: () => {} },
    storeUrl: 'sqlite://bench',
  });
  // Timeouts on real time: a virtual clock's jump must not time out an operation in flight.
  const watched = observedStore(store, { clock: systemClock, onOutcome: watch.observe });
  const { sim, engine, close } = await startBigProject({
    supporters: 100_000,
    seed: 11,
    store: watched,
    clock,
  });
  // The bot's store check writes too (a small transaction every 10 s while nothing else writes).
  const probe = startStoreProbe({ store: watched, clock, lastWriteAt: watch.lastWriteAt });
  const step = async () => {
    clock.set(engine.nextDueAt());
    await engine.runDue();
  };
  // Two hours settle what the activity left (moving averages, the last history point, the backfill).
  const settled = clock.now() + 2 * 3_600_000;
  while (clock.now() < settled) await step();
  const requestsBefore = sim.requests.length;
  mark('idle-start');
  const end = clock.now() + idleHours * 3_600_000;
  while (clock.now() < end) await step();
  mark('idle-end');
  const polls = sim.requests.length - requestsBefore;
  probe.stop();
  await close();
  await store.close();
  writeFileSync(join(dir, 'result.json'), JSON.stringify({ polls, hours: idleHours }));
} else if (mode === 'day') {
  // The campaign builds its own virtual clock: the store's checkpoints follow it from the setup on.
  let campaignClock: Clock | undefined;
  const clock: Clock = {
    now: () => (campaignClock ?? { now: Date.now }).now(),
    sleep: (ms, signal) => {
      if (campaignClock === undefined) throw new Error('the store committed before the campaign started');
      return campaignClock.sleep(ms, signal);
    },
  };
  const store = await openStore(`sqlite://${database}`, { clock });
  // As the bot runs it: the probe skips its write while the engine's writes prove the same.
  const watch = createStoreWatch({
    clock,
    logger: silentLogger,
    health: { recordStore: () => {} },
    storeUrl: 'sqlite://bench',
  });
  // Timeouts on real time: a virtual clock's jump must not time out an operation in flight.
  const watched = observedStore(store, { clock: systemClock, onOutcome: watch.observe });
  let probe: { stop(): void } | undefined;
  const figures = await runCampaignDay(
    [
      {
        name: 'store-disk',
        campaign: {
          wrapStore: () => watched,
          setup: (ctx) => {
            campaignClock = ctx.clock;
            probe = startStoreProbe({ store: watched, clock: ctx.clock, lastWriteAt: watch.lastWriteAt });
          },
        },
      },
    ],
    new RssPeak(),
    { ...defaultCampaign, naive: false },
  );
  probe?.stop();
  await store.close();
  writeFileSync(
    join(dir, 'result.json'),
    JSON.stringify({ notices: figures['notices'], requests: figures['requests'], hours: 24 }),
  );
} else {
  throw new Error(`usage: store-disk-child.ts idle|day <dir> (got ${mode})`);
}
