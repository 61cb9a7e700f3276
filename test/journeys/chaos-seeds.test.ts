/**
 * Journey (issue 29): chaos seeds on the running bot. Each seed is a whole schedule (test/chaos/real-bot): the
 * compiled entry point (`node dist/src/main.js`, as the image, the bench and the chaos command line run it) with
 * its real Bolt (Socket Mode) and discord.js (gateway) clients against the fake Slack and Discord, behind the
 * seed's faults on the wire, kill -9 and SIGSTOP of the process, channels closed and opened, API faults, supporters
 * arriving; judged by the chaos invariants against the simulator's truth (every supporter once per channel, no
 * second copy standing, no stall, no long doubt). One seed leans on Slack, one on Discord. A failure prints the one
 * command that replays it. The real-bot seeds that once failed run in chaos-seeds-once-failed.test.ts.
 */
import { describe, it } from 'vitest';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { expectSeedHolds, seedTimeoutMs } from './harness/real-bot-seed.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

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

describe('journey: chaos seeds on the running bot', () => {
  for (const { seed, leans } of everydaySeeds)
    it(
      `seed ${seed} (${leans}) holds every invariant`,
      () => expectSeedHolds(seed, compiledEntry()),
      seedTimeoutMs,
    );
});
