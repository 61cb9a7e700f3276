import { describe, expect, it } from 'vitest';
import { readStoredState } from '../../src/engine/state/project-state-store.js';
import { type EngineHarness, lc, runFor, useEngineHarness } from './harness.js';

const startHarness = useEngineHarness();

/** A promise the test settles by hand (a project's start-up key check). */
function deferred(): { promise: Promise<boolean>; settle(ok: boolean): void } {
  let settle: (ok: boolean) => void = () => {};
  const promise = new Promise<boolean>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

const projectRequests = (h: EngineHarness) => h.sim.requests.filter((r) => r.path.includes(`/${lc}`)).length;

describe('a project held for its own start-up key check', () => {
  it('is not polled until its check is done, then at once', async () => {
    const h = await startHarness();
    await h.engine.stop();
    const check = deferred();
    h.engine = h.newEngine({ projects: [{ linkCaption: lc, key: h.key, ready: check.promise }] });
    await runFor(h, 60_000);
    expect(projectRequests(h)).toBe(0);
    check.settle(true);
    await check.promise;
    await h.engine.runDue();
    expect(projectRequests(h)).toBeGreaterThan(0);
  });

  it('is dropped when its check says it cannot be read', async () => {
    const h = await startHarness();
    await h.engine.stop();
    const check = deferred();
    h.engine = h.newEngine({ projects: [{ linkCaption: lc, key: h.key, ready: check.promise }] });
    check.settle(false);
    await check.promise;
    await runFor(h, 60_000);
    expect(projectRequests(h)).toBe(0);
    expect(h.engine.status()).toEqual([]);
  });

  it('takes its first project read from the check (no second request), and reads it itself after', async () => {
    const h = await startHarness();
    await h.engine.stop();
    const checked = await h.api.project(lc, h.key).get();
    let taken = 0;
    const checkedRead = () => (taken++ === 0 ? checked : undefined);
    h.engine = h.newEngine({
      projects: [{ linkCaption: lc, key: h.key, ready: Promise.resolve(true), checkedRead }],
    });
    const projectReads = () => h.sim.requests.filter((r) => r.path === `/project/${lc}`).length;
    const before = projectReads();
    await h.engine.runDue();
    expect(projectReads()).toBe(before);
    expect((await readStoredState(h.store, lc))?.project?.snapshot).toEqual(checked);
    await runFor(h, 3_600_000);
    expect(projectReads()).toBeGreaterThan(before);
  });
});
