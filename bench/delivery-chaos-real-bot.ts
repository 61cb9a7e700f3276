/**
 * `deliveryChaos.realBotSeeds` in `npm run bench`: chaos seeds on the RUNNING bot (test/chaos/real-bot), the
 * compiled entry `dist/src/main.js` as the image runs it, with the real Bolt and discord.js clients against the
 * fakes on the real clock, one seed after another, judged by the same invariants as the virtual-clock seeds.
 * Reports how many ran and passed, the failing seeds (each with its replay command in the printed table), the
 * duplicates and misses, the worst stall, doubt and second copy, and the p99 of supporter-to-channel latency of
 * the live notices. `BENCH_REAL_BOT_SEEDS` (default 5) says how many, from seed 1 (a seed is about 60-100 s of
 * wall time); `tsx bench/delivery-chaos-real-bot.ts` runs this part alone.
 */
import { pathToFileURL } from 'node:url';
import { runRealBotSeed } from '../test/chaos/real-bot/run-real-bot.js';
import { replayCommand, seedReport } from '../test/chaos/run-seed.js';
import { ChaosTally } from './chaos-tally.js';
import { benchAppDir } from './compiled-children.js';
import { percentile } from './stats.js';

const defaultSeeds = 5;

export interface RealBotChaosFigures {
  readonly entry: 'compiled';
  readonly count: number;
  readonly passed: number;
  readonly failingSeeds: readonly number[];
  readonly supporters: number;
  readonly noticesJudged: number;
  readonly duplicates: number;
  readonly misses: number;
  readonly maxStallMs: number;
  readonly maxDoubtMs: number;
  /** The longest doubt less the time no look could decide it (the judge's excuses): the figure the bound is on. */
  readonly maxCountedDoubtMs: number;
  readonly maxSecondCopyMs: number;
  readonly latencyP99Ms: number;
  readonly seedWallP50Ms: number;
  readonly totalWallMs: number;
}

export interface RealBotChaosFailure {
  readonly seed: number;
  readonly replay: string;
  readonly violations: readonly string[];
}

function progress(message: string): void {
  process.stderr.write(
    `bench:deliveryChaos.realBotSeeds ${new Date().toISOString().slice(11, 19)} ${message}\n`,
  );
}

export async function runRealBotChaos(): Promise<{
  figures: RealBotChaosFigures;
  failures: RealBotChaosFailure[];
  tally: ChaosTally;
}> {
  const count = Number(process.env['BENCH_REAL_BOT_SEEDS'] ?? defaultSeeds);
  const entry = { kind: 'compiled' as const, appDir: await benchAppDir() };
  const failures: RealBotChaosFailure[] = [];
  const tally = new ChaosTally();
  const wallMs: number[] = [];
  const started = Date.now();
  for (let seed = 1; seed <= count; seed += 1) {
    const replay = `${replayCommand(seed, true)} --compiled`;
    try {
      const run = await runRealBotSeed(seed, { entry });
      const f = run.verdict.figures;
      wallMs.push(run.wallMs);
      tally.add(f);
      if (run.verdict.violations.length > 0) {
        failures.push({ seed, replay, violations: run.verdict.violations.slice(0, 3) });
        // The whole report: a real-clock seed may not fail the same way on its replay.
        progress(
          `seed ${seed} failed: ${replay}\n${seedReport(run, true)}\n${run.record.log.slice(-40).join('\n')}`,
        );
      } else progress(`seed ${seed} held (${Math.round(run.wallMs / 1000)} s)`);
    } catch (error) {
      // A seed whose world could not run (the bot never started, a fake failed) fails, and the rest go on.
      failures.push({ seed, replay, violations: [`the seed did not run: ${String(error)}`.slice(0, 300)] });
      progress(`seed ${seed} did not run: ${replay}`);
    }
  }
  return {
    figures: {
      entry: 'compiled',
      count,
      passed: count - failures.length,
      failingSeeds: failures.map((f) => f.seed),
      supporters: tally.supporters,
      noticesJudged: tally.notices,
      duplicates: tally.duplicates,
      misses: tally.misses,
      maxStallMs: tally.worst.stallMs,
      maxDoubtMs: tally.worst.doubtMs,
      maxCountedDoubtMs: tally.worst.countedDoubtMs,
      maxSecondCopyMs: tally.worst.secondCopyMs,
      latencyP99Ms: percentile(tally.latenciesMs, 99),
      seedWallP50Ms: percentile(wallMs, 50),
      totalWallMs: Date.now() - started,
    },
    failures,
    tally,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { figures, failures } = await runRealBotChaos();
  process.stdout.write(`${JSON.stringify({ realBotSeeds: figures, failures }, null, 2)}\n`);
  process.exit(0);
}
