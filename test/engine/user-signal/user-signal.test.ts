import { describe, expect, it } from 'vitest';
import { parseUserKey, type UserKey } from '../../../src/api/index.js';
import type { RequestLogEntry } from '../../../src/simulator/index.js';
import {
  announcedSupporterKeys,
  type EngineHarness,
  fundingKeyOf,
  initialSupporters,
  runFor,
  step,
  t0,
  useEngineHarness,
} from '../harness.js';

const startHarness = useEngineHarness();

const endOfDay = Math.floor(t0 / 86_400_000 + 1) * 86_400_000;
const userReads = (log: readonly RequestLogEntry[]) => log.filter((r) => r.path === '/user/me/projects');
const fundingsReads = (log: readonly RequestLogEntry[]) => log.filter((r) => r.path.endsWith('/fundings'));

/** A harness whose engine has the project owner's User key; fundings alone would poll once an hour. */
async function withUserKey(
  userLimits = { perMinute: 60, perDay: 5_000 },
  keyLimits?: { perMinute: number; perDay: number },
  ownPlan = false,
): Promise<{ h: EngineHarness; userKey: UserKey; raw: string }> {
  const harness = await startHarness({
    project: { supporters: initialSupporters(5) },
    ...(keyLimits ? { limits: keyLimits } : {}),
    // Fundings' own polling is slow here, so a fundings read soon after a change can only be the signal's;
    // with `ownPlan` the Pro key's own plan polls them.
    ...(ownPlan ? {} : { engine: { targetIntervalsMs: { fundings: 3_600_000 } } }),
  });
  harness.sim.setLimits({ user: userLimits });
  const raw = harness.sim.issueUserKey(harness.project.ownerId);
  const userKey = parseUserKey(raw);
  await harness.engine.stop();
  harness.engine = harness.newEngine({ userKey });
  await step(harness); // baseline of every feed and of the user read
  return { h: harness, userKey, raw };
}

describe('the User API key change signal', () => {
  it('never exceeds the user budget: at most 90% of the day and of each minute, no 429', async () => {
    const setup = await withUserKey({ perMinute: 10, perDay: 300 }, { perMinute: 10, perDay: 300 });
    const { h } = setup;
    for (let i = 0; i < 24; i++) {
      h.project.addSupporter({ amount: 1 });
      await runFor(h, 30 * 60_000);
    }
    await runFor(h, endOfDay - h.clock.now() - 1);
    const user = h.sim.requests.filter((r) => r.credential === 'user');
    const today = user.filter((r) => r.at < endOfDay);
    expect(today.length).toBeLessThanOrEqual(270);
    // It does use what it may (about 270 spread over the ~14 h left of the day).
    expect(today.length).toBeGreaterThan(200);
    const perMinute = new Map<number, number>();
    for (const r of user)
      perMinute.set(Math.floor(r.at / 60_000), (perMinute.get(Math.floor(r.at / 60_000)) ?? 0) + 1);
    expect(Math.max(...perMinute.values())).toBeLessThanOrEqual(9);
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(h.engine.metrics().userReads).toBe(user.length);
  });

  it('a moved supporter count triggers a fundings poll within one user-read interval', async () => {
    const setup = await withUserKey();
    const { h } = setup;
    await runFor(h, 5 * 60_000);
    const reads = userReads(h.sim.requests);
    const last = reads.at(-1)?.at ?? 0;
    const interval = last - (reads.at(-2)?.at ?? 0);
    expect(interval).toBeGreaterThan(0);
    const from = h.sim.requests.length;
    const addedAt = h.clock.now();
    const k = h.project.addSupporter({ amount: 5 });
    await runFor(h, interval + 2_000);
    const polls = fundingsReads(h.sim.requests.slice(from));
    expect(polls.length).toBeGreaterThan(0);
    expect((polls[0]?.at ?? Number.POSITIVE_INFINITY) - addedAt).toBeLessThanOrEqual(interval + 1_000);
    expect(announcedSupporterKeys(h.recorder.events)).toContain(fundingKeyOf(k));
    expect(h.engine.metrics().userSignals).toBe(1);
  });

  it('a signal only schedules a poll: a count that moved without a new public entry makes no notice', async () => {
    const setup = await withUserKey();
    const { h } = setup;
    await runFor(h, 5 * 60_000);
    h.recorder.clear();
    const from = h.sim.requests.length;
    // A support of the baseline fails: the count and the funding move, the list gains nothing.
    const oldest = h.project.activeSupportKeys()[0];
    if (oldest === undefined) throw new Error('the seed has supporters');
    h.project.failSupport(oldest);
    await runFor(h, 2 * 60_000);
    expect(h.engine.metrics().userSignals).toBe(1);
    expect(fundingsReads(h.sim.requests.slice(from)).length).toBeGreaterThan(0);
    expect(h.recorder.events.filter((e) => e.type === 'supporter' || e.type === 'supporter-burst')).toEqual(
      [],
    );
  });

  it('without a user key nothing reads /user/me/projects', async () => {
    const h = await startHarness();
    await runFor(h, 10 * 60_000);
    expect(userReads(h.sim.requests)).toEqual([]);
    expect(h.engine.metrics().userReads).toBe(0);
  });

  it('a refused user key leaves every project on its own polling and is retried every 30-50 s', async () => {
    const setup = await withUserKey();
    const { h } = setup;
    h.sim.revokeKey(setup.raw);
    await runFor(h, 30 * 60_000);
    const refused = userReads(h.sim.requests).filter((r) => r.status === 401);
    // 5, 10, 20 s, then every 30-50 s (the engine's recheckBackoff): about 45 in 30 minutes; the error is logged once.
    expect(refused.length).toBeGreaterThanOrEqual(38);
    expect(refused.length).toBeLessThanOrEqual(56);
    expect(h.logger.warnings.filter((m) => m.includes('User API key was refused'))).toHaveLength(1);
    // Enabled again: seen at the next re-check, at most 50 s away.
    h.sim.restoreKey(setup.raw);
    await runFor(h, 50_000);
    expect(h.logger.records.some((r) => r.msg === 'the User API key is accepted again')).toBe(true);
  });
});

describe('the key polls around the User key change signal', () => {
  it('falls between the signal reads, not next to them: each read that saw no change counts as a look', async () => {
    const { h } = await withUserKey(undefined, undefined, true);
    // A supporter every 40 s: busy enough for the plan's full share of polls between the reads.
    for (let i = 0; i < 45; i++) {
      h.project.addSupporter({ amount: 5 });
      await runFor(h, 40_000);
    }
    const from = h.sim.requests.findIndex((r) => r.at >= h.clock.now() - 20 * 60_000);
    const log = h.sim.requests.slice(from);
    const reads = userReads(log).map((r) => r.at);
    const polls = fundingsReads(log)
      .filter((r) => r.credential === 'project')
      .map((r) => r.at);
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
    const { h } = await withUserKey(undefined, undefined, true);
    const from = h.sim.requests.length;
    await runFor(h, 30 * 60_000);
    const log = h.sim.requests.slice(from);
    const reads = userReads(log).map((r) => r.at);
    // On its own the plan polls the fundings every few seconds (hundreds in 30 minutes); the signal's
    // reads every ~11 s watch instead, the key looks at least every 10 minutes.
    expect(reads.length).toBeGreaterThan(100);
    expect(
      fundingsReads(log)
        .filter((r) => r.credential === 'project')
        .map((r) => r.at).length,
    ).toBeLessThanOrEqual(4);
    const interval = (reads.at(-1) ?? 0) - (reads.at(-2) ?? 0);
    const k = h.project.addSupporter({ amount: 5 });
    await runFor(h, interval + 2_000);
    expect(announcedSupporterKeys(h.recorder.events)).toContain(fundingKeyOf(k));
  });
});
