/**
 * `deliveryChaos` in `npm run bench`: many chaos seeds (test/chaos), each a whole world on the virtual clock
 * (one to three fundbot processes, Slack and Discord channels, supporters arriving, platform weather, kills,
 * store outages, closed channels, API faults) judged by the chaos invariants against the simulator's truth.
 * Reports the seeds run, the ones that failed (each with the command that replays it), the worst figures seen
 * and the time the seeds took. `BENCH_CHAOS_SEEDS` (default 200) says how many, from seed 1;
 * `tsx bench/delivery-chaos.ts` runs this section alone. `realBotSeeds`: seeds on the running bot
 * (delivery-chaos-real-bot.ts), after the virtual-clock ones.
 *
 * The figures over both kinds of seed: `seeds`, `supporters`, `duplicates`, `misses`, `maxStallMs`,
 * `maxDoubtMs`, `latencyMs.p99` (of the notices no fault held, as the judge bounds it), `failingSeeds` (a
 * real-bot seed named `real-bot N`). `maxDoubtMs` is the bound's figure: a doubt less the time no look could
 * decide it (the judge's excuses: the bot out of the channel, a failed look's interval); the raw longest doubts
 * stay beside it as `worstDoubtMs` and `realBotSeeds.maxDoubtMs`.
 */
import { pathToFileURL } from 'node:url';
import { lateLandingFaults } from '../test/chaos/platform-faults.js';
import { replayCommand, runSeed } from '../test/chaos/run-seed.js';
import { ChaosTally } from './chaos-tally.js';
import { runRealBotChaos } from './delivery-chaos-real-bot.js';
import type { BenchSection, Figures } from './section.js';
import { percentile } from './stats.js';

const defaultSeeds = 200;
/**
 * A seed runs 1-3 s on a quiet machine. One that has no verdict after this much wall time hung (a wait on the
 * real clock inside the virtual world, a spin): it counts as failed and the bench goes on without it.
 */
const seedWallLimitMs = 120_000;

type SeedOutcome = Awaited<ReturnType<typeof runSeed>> | 'hung';

function runSeedWithin(seed: number, limitMs: number): Promise<SeedOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => {
    timer = setTimeout(() => resolve('hung'), limitMs);
    timer.unref();
  });
  return Promise.race([runSeed(seed), hung]).finally(() => clearTimeout(timer));
}

function progress(message: string): void {
  process.stderr.write(`bench:deliveryChaos ${new Date().toISOString().slice(11, 19)} ${message}\n`);
}

async function runDeliveryChaos(): Promise<Figures> {
  const count = Number(process.env['BENCH_CHAOS_SEEDS'] ?? defaultSeeds);
  const failures: { seed: number; replay: string; violations: string[] }[] = [];
  const hungSeeds: number[] = [];
  const wallMs: number[] = [];
  const tally = new ChaosTally();
  const started = Date.now();
  const cpuBefore = process.cpuUsage();
  for (let seed = 1; seed <= count; seed += 1) {
    const run = await runSeedWithin(seed, seedWallLimitMs);
    if (run === 'hung') {
      hungSeeds.push(seed);
      const violation = `no verdict within ${seedWallLimitMs / 1000} s of wall time: the seed hung`;
      failures.push({ seed, replay: replayCommand(seed), violations: [violation] });
      progress(`seed ${seed} hung: ${replayCommand(seed)}`);
      continue;
    }
    const f = run.verdict.figures;
    wallMs.push(run.wallMs);
    tally.add(f);
    if (run.verdict.violations.length > 0) {
      failures.push({ seed, replay: replayCommand(seed), violations: run.verdict.violations.slice(0, 3) });
      progress(`seed ${seed} failed: ${replayCommand(seed)}`);
    }
    if (seed % 20 === 0) progress(`${seed}/${count} seeds, ${failures.length} failed`);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const totalWallMs = Date.now() - started;
  const realBot = await runRealBotChaos();
  const [virtual, real] = [tally, realBot.tally];
  const { worst } = virtual;
  return {
    deliveryChaos: {
      seeds: count + realBot.figures.count,
      supporters: virtual.supporters + real.supporters,
      duplicates: virtual.duplicates + real.duplicates,
      misses: virtual.misses + real.misses,
      maxStallMs: Math.max(worst.stallMs, real.worst.stallMs),
      maxDoubtMs: Math.max(worst.countedDoubtMs, real.worst.countedDoubtMs),
      maxDoubtBasis: 'in doubt less the time no look could decide it (bot out of the channel, failed looks)',
      // The bound's figure: live notices that met no fault of their own (the judge's rule); with every live
      // notice, those held by a fault's Retry-Afters or a dead process included, beside it.
      latencyMs: {
        p99: percentile([...virtual.undisturbedLatenciesMs, ...real.undisturbedLatenciesMs], 99),
        p99AllLiveNotices: percentile([...virtual.latenciesMs, ...real.latenciesMs], 99),
      },
      failingSeeds: [
        ...failures.map((f) => String(f.seed)),
        ...realBot.figures.failingSeeds.map((s) => `real-bot ${s}`),
      ],
      virtualClockSeeds: count,
      virtualClockFailures: failures.length,
      failedSeeds: failures.map((f) => f.seed),
      hungSeeds,
      lateLandingFaults,
      noticesJudged: virtual.notices,
      worstStallMs: worst.stallMs,
      worstDoubtMs: worst.doubtMs,
      worstSecondCopyMs: worst.secondCopyMs,
      totalWallMs,
      // CPU (user + system) the seeds took: on a shared machine a steadier figure than the wall time.
      totalCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      seedWallP50Ms: percentile(wallMs, 50),
      seedWallP95Ms: percentile(wallMs, 95),
      realBotSeeds: realBot.figures,
    },
    // Not in the JSON line: each failed seed's replay command and first violations, for the printed table.
    details: { deliveryChaosFailures: failures, deliveryChaosRealBotFailures: realBot.failures },
  };
}

export const deliveryChaosSection: BenchSection = { name: 'delivery-chaos', run: runDeliveryChaos };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await runDeliveryChaos();
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
