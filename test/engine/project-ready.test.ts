import { afterEach, describe, expect, it } from 'vitest';
import { type EngineHarness, lc, runFor, startEngineHarness } from './harness.js';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

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
    h = await startEngineHarness();
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
    h = await startEngineHarness();
    await h.engine.stop();
    const check = deferred();
    h.engine = h.newEngine({ projects: [{ linkCaption: lc, key: h.key, ready: check.promise }] });
    check.settle(false);
    await check.promise;
    await runFor(h, 60_000);
    expect(projectRequests(h)).toBe(0);
    expect(h.engine.status()).toEqual([]);
  });
});
