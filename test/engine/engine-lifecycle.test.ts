import { describe, expect, it, vi } from 'vitest';
import { memoryLease } from '../../src/engine/index.js';
import { stateKeys } from '../../src/engine/state/project-state.js';
import { readStoredState } from '../../src/engine/state/project-state-store.js';
import {
  announcedSupporterKeys,
  describeEachListOrder,
  fundingKeyOf,
  initialSupporters,
  lc,
  runFor,
  step,
  t0,
  useEngineHarness,
} from './harness.js';

const startHarness = useEngineHarness();

describeEachListOrder('restarts', (startInOrder) => {
  it('a restart announces what happened while down, once', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(140) } });
    await step(h);
    await h.engine.stop();
    h.clock.advance(30 * 60_000);
    const missed = [h.project.addSupporter({ amount: 2 }), h.project.addSupporter({ amount: 3 })];
    h.project.addWallPost({ message: 'while you were away' });
    h.engine = h.newEngine();
    await runFor(h, 5 * 60_000);
    // Same second, no id: the API's order between the two is arbitrary.
    expect(announcedSupporterKeys(h.recorder.events).sort()).toEqual(missed.map(fundingKeyOf).sort());
    expect(h.recorder.ofType('wall-post')).toHaveLength(1);
    expect(h.recorder.ofType('watching')).toEqual([]); // "now watching" is the core's, on subscription
  });

  it('a burst above the threshold becomes one coalesced notice carrying every name, newest first', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(50) } });
    await step(h);
    await h.engine.stop();
    const names = Array.from({ length: 12 }, (_, i) => `Name${i}`);
    for (const [i, displayName] of names.entries())
      h.project.addSupporter({ displayName, amount: 1, at: h.clock.now() + i * 1000 });
    h.clock.advance(60_000);
    h.engine = h.newEngine();
    await runFor(h, 2 * 60_000);
    const bursts = h.recorder.ofType('supporter-burst');
    expect(bursts).toHaveLength(1);
    expect(bursts[0]?.count).toBe(12);
    expect(bursts[0]?.displayNames).toEqual([...names].reverse());
    expect(bursts[0]?.entryKeys).toHaveLength(12);
    expect(h.recorder.ofType('supporter')).toHaveLength(0);
  });

  it('the flood guard holds notices when most of a list looks new, warns and re-baselines', async () => {
    const h = await startInOrder({ project: { supporters: initialSupporters(300) } });
    await step(h);
    // Simulate a changed key format: every stored key stops matching.
    const state = await readStoredState(h.store, lc);
    const fundings = state?.lists.fundings;
    if (!state || !fundings) throw new Error('no stored state');
    const changed = fundings.entries.map((f) => ({ ...f, user: { ...f.user, id: f.user.id + 1_000_000 } }));
    // Stored back as a single value (the layout before the split): loading migrates it.
    await h.store.delete(stateKeys.head(lc));
    await h.store.set(stateKeys.state(lc), {
      ...state,
      lists: { ...state.lists, fundings: { ...fundings, entries: changed } },
    });
    h.engine = h.newEngine();
    h.recorder.clear();
    await runFor(h, 5 * 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toEqual([]);
    expect(h.logger.warnings.some((w) => w.includes('flood guard'))).toBe(true);
    const status = await h.engine.readModel.status(lc);
    expect(status.recentErrors.some((e) => e.note.code === 'flood-held')).toBe(true);
    h.project.addSupporter({ amount: 1 });
    await runFor(h, 2 * 60_000);
    expect(announcedSupporterKeys(h.recorder.events)).toHaveLength(1);
  });
});

describe('project and reward notices', () => {
  it('milestones, goal reached and over 100% are announced once each', async () => {
    const h = await startHarness({ project: { supporters: [{ at: t0 - 60_000, amount: 100 }] } });
    await step(h);
    h.project.addSupporter({ amount: 200 }); // 30%
    await runFor(h, 3 * 60_000);
    h.project.addSupporter({ amount: 750 }); // 105%
    await runFor(h, 3 * 60_000);
    h.project.addSupporter({ amount: 500 }); // 155%
    await runFor(h, 3 * 60_000);
    await runFor(h, 10 * 60_000);
    const milestones = h.recorder.ofType('milestone').map((m) => [m.percent, m.goalReached]);
    expect(milestones).toEqual([
      [25, false],
      [100, true],
      [150, false],
    ]);
  });

  it('sold-out and unlocked notices only for publicly visible rewards', async () => {
    const h = await startHarness({
      project: {
        rewards: [
          { id: 1, title: 'Limited mug', price: 10, quantityTotal: 1 },
          { id: 2, title: 'Secret shirt', price: 20, quantityTotal: 1, status: 'hidden' },
          { id: 3, title: 'Stretch goal', price: 30, unlockThreshold: 500 },
          { id: 4, title: 'Goal gift', price: 40, hiddenUntilGoalReached: true, unlockThreshold: 1000 },
        ],
      },
    });
    await step(h);
    h.project.addSupporter({ rewardIds: [1], amount: 10 });
    h.project.setRewardStatus(2, 'enabled');
    h.project.addSupporter({ rewardIds: [2], amount: 20 });
    h.project.setRewardStatus(2, 'hidden');
    h.project.addSupporter({ amount: 1000 });
    await runFor(h, 15 * 60_000);
    expect(h.recorder.ofType('reward-sold-out').map((e) => e.rewardId)).toEqual([1]);
    expect(
      h.recorder
        .ofType('reward-unlocked')
        .map((e) => e.rewardId)
        .sort(),
    ).toEqual([3, 4]);
  });

  it('status changes and payoff are announced', async () => {
    const h = await startHarness({ project: { status: 'active' } });
    await step(h);
    h.project.setStatus('successful');
    await runFor(h, 5 * 60_000);
    h.project.payoff();
    await runFor(h, 5 * 60_000);
    expect(h.recorder.ofType('project-status').map((e) => [e.from, e.to])).toEqual([
      ['active', 'successful'],
      ['successful', 'payoff'],
    ]);
  });
});

describe('leases and the real-time loop', () => {
  it('only the replica holding the lease polls a project', async () => {
    const h = await startHarness();
    const lease = memoryLease(h.clock);
    const a = h.newEngine({ lease, replicaId: 'a' });
    const b = h.newEngine({ lease, replicaId: 'b' });
    await a.runDue();
    const from = h.sim.requests.length;
    await b.runDue();
    expect(h.sim.requests.length).toBe(from);
    // A command on the replica without the lease: a typed LeaseLostError, and no request.
    await expect(b.readModel.rewards(lc, 0)).rejects.toMatchObject({ code: 'lease_lost', project: lc });
    expect(h.sim.requests.length).toBe(from);
    await a.stop(); // releases
    h.clock.advance(30_000); // b retries a lease it could not get after half a TTL
    await b.runDue();
    expect(h.sim.requests.length).toBeGreaterThan(from);
  });

  it('start() polls on the clock and stop() ends the loop without leaving a sleeper behind', async () => {
    const h = await startHarness();
    await h.engine.start();
    // The loop starts the project's run without waiting for it, then parks on the clock:
    // the clock resolves that event, and the run's first request follows it.
    await h.clock.untilSleepers(1);
    // vitest's default 1 s is short for an HTTP round trip on a loaded machine.
    await vi.waitFor(() => expect(h?.sim.requests.length ?? 0).toBeGreaterThan(0), { timeout: 10_000 });
    expect(h.clock.pendingSleepers).toBe(1);
    const polled = h.sim.requests.length;
    expect(polled).toBeGreaterThan(0);
    await h.engine.stop();
    expect(h.clock.pendingSleepers).toBe(0);
  });
});
