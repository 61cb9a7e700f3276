/**
 * Issue 24: the engine watches a project added while it runs (connected from chat) and stops watching a removed
 * one; a key rotation (remove, then add with the new key) continues from the stored state and announces nothing
 * twice.
 */
import { describe, expect, it } from 'vitest';
import { parseProjectKey } from '../../src/api/index.js';
import { announcedSupporterKeys, lc, requestsTo, runFor, useEngineHarness } from './harness.js';

const startHarness = useEngineHarness();

describe('engine.addProject and engine.removeProject', () => {
  it('polls a project from when it is added, until it is removed; a new key continues its state', async () => {
    const harness = await startHarness({ project: { supporters: [] } });
    await harness.engine.stop();
    harness.engine = harness.newEngine({ projects: [] });
    const { engine, sim } = harness;

    await runFor(harness, 60_000);
    expect(requestsTo(sim, '/fundings')).toBe(0);

    expect(engine.addProject({ linkCaption: lc, key: harness.key })).toBe(true);
    expect(engine.addProject({ linkCaption: lc, key: harness.key })).toBe(false);
    await runFor(harness, 5_000);
    expect(requestsTo(sim, '/fundings')).toBeGreaterThan(0);
    expect(engine.readModel.watchedProjects().map((w) => w.linkCaption)).toEqual([lc]);

    harness.project.addSupporter({ displayName: 'First After Connect' });
    await runFor(harness, 120_000);
    expect(announcedSupporterKeys(harness.recorder.events)).toHaveLength(1);

    // Rotation: the runtime is bound to its key, so the project is removed and added with the new one.
    const rotated = parseProjectKey(sim.issueProjectKey(lc));
    sim.revokeKey(harness.rawKey);
    expect(await engine.removeProject(lc)).toBe(true);
    expect(engine.addProject({ linkCaption: lc, key: rotated })).toBe(true);
    harness.project.addSupporter({ displayName: 'After Rotation' });
    await runFor(harness, 120_000);
    // The stored state carried over: the first supporter is not announced again, the new one is.
    expect(announcedSupporterKeys(harness.recorder.events)).toHaveLength(2);
    expect(engine.status().find((s) => s.project === lc)?.paused).toBeNull();

    expect(await engine.removeProject(lc)).toBe(true);
    expect(await engine.removeProject(lc)).toBe(false);
    const before = sim.requests.length;
    await runFor(harness, 120_000);
    expect(sim.requests.slice(before).filter((r) => r.path.includes(`/${lc}/`))).toEqual([]);
    expect(engine.readModel.watchedProjects()).toEqual([]);
  });
});

describe('engine.removeProject with a run in flight', () => {
  it('resolves only after that run settled, so nothing of the removed project is written after it', async () => {
    const harness = await startHarness({ project: { supporters: [] } });
    await harness.engine.stop();
    let offerEntered!: () => void;
    const entered = new Promise<void>((resolve) => {
      offerEntered = resolve;
    });
    let releaseOffer!: () => void;
    const released = new Promise<void>((resolve) => {
      releaseOffer = resolve;
    });
    const offersFinished: string[] = [];
    harness.engine = harness.newEngine({
      projects: [],
      // The bot's sink writes per project (the roll-call journal) while it takes an offer.
      sink: {
        async offer(project, events) {
          offerEntered();
          await released;
          offersFinished.push(project);
          return events.map((e) => e.id);
        },
      },
    });
    const { engine } = harness;
    engine.addProject({ linkCaption: lc, key: harness.key });
    const firstRun = engine.readBaseline(lc);
    await entered;

    let removed = false;
    const removal = engine.removeProject(lc).then((result) => {
      removed = true;
      return result;
    });
    // The run is parked inside its offer: the removal waits for it rather than resolving beside it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(removed).toBe(false);

    releaseOffer();
    expect(await removal).toBe(true);
    expect(offersFinished).toEqual([lc]);
    await firstRun;
    expect(engine.readModel.watchedProjects()).toEqual([]);
  });
});
