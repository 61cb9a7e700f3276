/**
 * Journey (issue 29): chaos seeds on the running bot. Each seed is a whole schedule (test/chaos/real-bot): `npm
 * start`'s entry point (`src/main.ts` under tsx) with its real Bolt (Socket Mode) and discord.js (gateway)
 * clients against the fake Slack and Discord, behind the seed's faults on the wire, kill -9 and SIGSTOP of the
 * process, channels closed and opened, API faults, supporters arriving; judged by the chaos invariants against
 * the simulator's truth (every supporter once per channel, no second copy standing, no stall, no long doubt).
 * One seed leans on Slack, one on Discord. A failure prints the one command that replays it. The real-bot seeds
 * that once failed are kept in test/chaos/seeds-that-failed.json (`"realBot": true`); an open one is skipped with
 * its replay command printed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runRealBotSeed } from '../chaos/real-bot/run-real-bot.js';
import { replayCommand, seedReport } from '../chaos/run-seed.js';
import { killAllBots } from './harness/bot-process.js';

interface FailedSeed {
  readonly seed: number;
  readonly realBot?: boolean;
  readonly open?: boolean;
  readonly failed: string;
  /** Where the batch minute must fall for the seed's failing interleaving (run-real-bot.ts `minuteAtMs`). */
  readonly minuteAtMs?: number;
}

/**
 * 16: two Slack channels (one with its daily thread) and two Discord ones, Slack posts failing before and after
 * landing, landing and answering late, resets, a kill -9 as the bot looks for a post in doubt.
 * 12: one channel each, Discord posts failing one in five (429s, late answers, no answers, resets), a pause, a kill
 * as a batch goes out and as it looks, a Discord channel and a Slack one closed and opened.
 */
const everydaySeeds = [
  { seed: 16, leans: 'Slack' },
  { seed: 12, leans: 'Discord' },
];
/** A seed's schedule is about a minute; the drain after it waits at most 130 s (the doubt bound and the quiet time); the bot starts and stops in it. */
const seedTimeoutMs = 300_000;

const failedRealBotSeeds = (
  JSON.parse(
    readFileSync(new URL('../chaos/seeds-that-failed.json', import.meta.url), 'utf8'),
  ) as FailedSeed[]
).filter((s) => s.realBot === true);

async function expectSeedHolds(seed: number, minuteAtMs?: number): Promise<void> {
  try {
    const run = await runRealBotSeed(seed, minuteAtMs !== undefined ? { minuteAtMs } : {});
    expect(run.verdict.violations, seedReport(run, true)).toEqual([]);
    // The judge saw the world it judges: supporters arrived and were named in the channels.
    expect(run.verdict.figures.notices).toBeGreaterThan(0);
  } finally {
    killAllBots();
  }
}

describe('journey: chaos seeds on the running bot', () => {
  for (const { seed, leans } of everydaySeeds)
    it(`seed ${seed} (${leans}) holds every invariant`, () => expectSeedHolds(seed), seedTimeoutMs);
  for (const failed of failedRealBotSeeds) {
    if (failed.open)
      console.log(
        `real-bot chaos seed ${failed.seed} skipped: still open (${replayCommand(failed.seed, true)}): ${failed.failed}`,
      );
    it.skipIf(failed.open === true)(
      `seed ${failed.seed}, once failed: ${failed.failed}`,
      () => expectSeedHolds(failed.seed, failed.minuteAtMs),
      // Waiting for the batch minute to fall where the seed needs it costs up to a minute.
      seedTimeoutMs + (failed.minuteAtMs !== undefined ? 60_000 : 0),
    );
  }
});
