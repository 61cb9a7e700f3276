/**
 * One chaos seed on the running bot, as a journey asserts it (test/chaos/real-bot): run, judged by the chaos
 * invariants; the run stops every bot it started (its bot life's stop, whatever the verdict), and no other: seeds
 * run side by side in one file. Shared by the everyday seeds and the seeds that once failed,
 * which are two files so the suite runs them in two journey lanes side by side.
 */
import { expect } from 'vitest';
import { runRealBotSeed } from '../../chaos/real-bot/run-real-bot.js';
import { seedReport } from '../../chaos/run-seed.js';
import type { Entry } from './bot-process.js';

/** A seed's schedule is about a minute; the drain after it waits at most 130 s (the doubt bound and the quiet time); the bot starts and stops in it. */
export const seedTimeoutMs = 300_000;

/** `entry`: the compiled one (compiled-entry.ts), as the bench's real-bot seeds and the chaos command line run it. */
export async function expectSeedHolds(seed: number, entry: Entry, minuteAtMs?: number): Promise<void> {
  const run = await runRealBotSeed(seed, minuteAtMs !== undefined ? { entry, minuteAtMs } : { entry });
  expect(run.verdict.violations, seedReport(run, true)).toEqual([]);
  // The judge saw the world it judges: supporters arrived and were named in the channels.
  expect(run.verdict.figures.notices).toBeGreaterThan(0);
}
