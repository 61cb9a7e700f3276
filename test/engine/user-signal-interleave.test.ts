import { afterEach, describe, expect, it } from 'vitest';
import { parseUserKey } from '../../src/api/index.js';
import type { RequestLogEntry } from '../../src/simulator/index.js';
import {
  announcedSupporterKeys,
  type EngineHarness,
  fundingKeyOf,
  initialSupporters,
  runFor,
  startEngineHarness,
  step,
} from './harness.js';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const userReadTimes = (log: readonly RequestLogEntry[]) =>
  log.filter((r) => r.path === '/user/me/projects').map((r) => r.at);
const fundingsPollTimes = (log: readonly RequestLogEntry[]) =>
  log.filter((r) => r.credential === 'project' && r.path.endsWith('/fundings')).map((r) => r.at);

/** The engine on the Pro plan's own budget, with the project owner's User key as a change signal. */
async function withSignal(): Promise<EngineHarness> {
  const harness = await startEngineHarness({ project: { supporters: initialSupporters(5) } });
  const userKey = parseUserKey(harness.sim.issueUserKey(harness.project.ownerId));
  await harness.engine.stop();
  harness.engine = harness.newEngine({ userKey });
  await step(harness);
  return harness;
}

describe('the key polls around the User key change signal', () => {
  it('falls between the signal reads, not next to them: each read that saw no change counts as a look', async () => {
    h = await withSignal();
    // A supporter every 40 s: busy enough for the plan's full share of polls between the reads.
    for (let i = 0; i < 45; i++) {
      h.project.addSupporter({ amount: 5 });
      await runFor(h, 40_000);
    }
    const from = h.sim.requests.findIndex((r) => r.at >= h!.clock.now() - 20 * 60_000);
    const log = h.sim.requests.slice(from);
    const reads = userReadTimes(log);
    const polls = fundingsPollTimes(log);
    expect(reads.length).toBeGreaterThan(60);
    expect(polls.length).toBeGreaterThan(60);
    // A poll at a read's own instant is the one the read asked for (the counts moved). Any other poll
    // within 1.5 s of a read looks again at what the read just saw: spread at random against the reads,
    // about a quarter of the polls were.
    const nextTo = polls.filter((p) => reads.some((r) => p !== r && Math.abs(p - r) < 1_500));
    expect(nextTo).toEqual([]);
    expect(announcedSupporterKeys(h.recorder.events)).toHaveLength(45);
  });

  it('a quiet list leaves the watching to the signal: few key polls, and a new supporter still announced within one read', async () => {
    h = await withSignal();
    const from = h.sim.requests.length;
    await runFor(h, 30 * 60_000);
    const log = h.sim.requests.slice(from);
    const reads = userReadTimes(log);
    // On its own the plan polls the fundings every few seconds (hundreds in 30 minutes); the signal's
    // reads every ~11 s watch instead, the key looks at least every 10 minutes.
    expect(reads.length).toBeGreaterThan(100);
    expect(fundingsPollTimes(log).length).toBeLessThanOrEqual(4);
    const interval = (reads.at(-1) ?? 0) - (reads.at(-2) ?? 0);
    const k = h.project.addSupporter({ amount: 5 });
    await runFor(h, interval + 2_000);
    expect(announcedSupporterKeys(h.recorder.events)).toContain(fundingKeyOf(k));
  });
});
