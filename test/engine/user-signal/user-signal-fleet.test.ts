/**
 * Issue 30, one User-key reader per fleet: only the replica holding the reader lease reads /user/me/projects;
 * the others follow its shared reads from the store, so the fleet reads the key at one process's pace and a
 * replica that polls a project still hears its counts move. A reader that goes away is replaced.
 */
import { describe, expect, it } from 'vitest';
import { parseUserKey } from '../../../src/api/index.js';
import { type Engine, memoryLease } from '../../../src/engine/index.js';
import {
  announcedSupporterKeys,
  type EngineHarness,
  fundingKeyOf,
  initialSupporters,
  lc,
  useEngineHarness,
} from '../harness.js';

const startHarness = useEngineHarness();

const userReads = (h: EngineHarness, from = 0) =>
  h.sim.requests.slice(from).filter((r) => r.path === '/user/me/projects').length;

async function harnessWithUserKey(): Promise<{ h: EngineHarness; raw: string }> {
  const harness = await startHarness({
    project: { supporters: initialSupporters(5) },
    // Fundings' own polling is slow: a fundings read soon after a change is the signal's.
    engine: { targetIntervalsMs: { fundings: 3_600_000 } },
  });
  await harness.engine.stop();
  return { h: harness, raw: harness.sim.issueUserKey(harness.project.ownerId) };
}

/** Runs every engine's due work on the shared virtual clock for `ms`. */
async function runFleet(harness: EngineHarness, engines: readonly Engine[], ms: number): Promise<void> {
  const until = harness.clock.now() + ms;
  for (;;) {
    const next = Math.min(...engines.map((e) => e.nextDueAt()));
    if (next > until) break;
    harness.clock.set(Math.max(harness.clock.now(), next));
    await Promise.all(engines.map((e) => e.runDue()));
  }
  harness.clock.set(until);
}

describe('the User key on several replicas', () => {
  it('one reads at one process pace, the poller follows its reads, and another takes over when it goes', async () => {
    const setup = await harnessWithUserKey();
    const { h } = setup;
    const userKey = parseUserKey(setup.raw);

    // One process alone, for the pace to compare with.
    const alone = h.newEngine({ userKey });
    await runFleet(h, [alone], 30 * 60_000);
    await alone.stop();
    const aloneReads = userReads(h);

    const lease = memoryLease(h.clock);
    let reader = 'a';
    const replica = (id: string) =>
      h!.newEngine({ userKey, lease, replicaId: id, userKeyReader: () => reader === id });
    const fleet = ['a', 'b', 'c'].map(replica);
    // The project is polled by b; a reads the User key.
    await lease.acquire(lc, 'b', 24 * 3_600_000);
    const from = h.sim.requests.length;
    await runFleet(h, fleet, 30 * 60_000);
    const fleetReads = userReads(h, from);
    expect(fleetReads).toBeLessThanOrEqual(Math.ceil(aloneReads * 1.1));
    expect(fleetReads).toBeGreaterThan(aloneReads * 0.8);
    expect(fleet[0]?.metrics().userReads).toBe(fleetReads);
    expect(fleet[1]?.metrics().userReads).toBe(0);

    // b hears the count move through a's shared read: its fundings poll comes within a read interval.
    const added = h.project.addSupporter({ amount: 5 });
    const addedAt = h.clock.now();
    const polledFrom = h.sim.requests.length;
    await runFleet(h, fleet, 3 * 60_000);
    const poll = h.sim.requests.slice(polledFrom).find((r) => r.path.endsWith('/fundings'));
    expect(poll).toBeDefined();
    expect((poll?.at ?? 0) - addedAt).toBeLessThan(60_000);
    expect(fleet[1]?.metrics().userSignals).toBe(1);
    expect(announcedSupporterKeys(h.recorder.events)).toContain(fundingKeyOf(added));

    // a goes away; c takes the lease: it reads from then on, at the same pace.
    reader = 'c';
    const handover = h.sim.requests.length;
    await runFleet(h, fleet.slice(1), 30 * 60_000);
    expect(fleet[2]?.metrics().userReads).toBeGreaterThan(aloneReads * 0.8);
    expect(userReads(h, handover)).toBeLessThanOrEqual(Math.ceil(aloneReads * 1.1) + 1);
    for (const engine of fleet) await engine.stop();
  }, 60_000);

  it('warns once at start when the key owner is not a member of a configured project', async () => {
    const setup = await harnessWithUserKey();
    const { h } = setup;
    const stranger = parseUserKey(h.sim.issueUserKey(999_999, { scopes: ['project:read'] }));
    const engine = h.newEngine({ userKey: stranger });
    await runFleet(h, [engine], 10 * 60_000);
    const warned = h.logger.warnings.filter((m) => m.includes('is not a member of'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain(lc);
    await engine.stop();
  });
});
