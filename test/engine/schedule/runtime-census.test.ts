import { afterEach, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient, parseProjectKey } from '../../../src/api/index.js';
import { engineSettings } from '../../../src/engine/engine-options.js';
import type { EngineContext } from '../../../src/engine/project/engine-context.js';
import { addProjectRuntime, type ProjectRuntime } from '../../../src/engine/project/project-runtime.js';
import type { CredentialGate } from '../../../src/engine/schedule/credential-gate.js';
import { censusOf } from '../../../src/engine/schedule/runtime-census.js';
import { seededRandom } from '../../../src/lib/random.js';
import { ManualClock } from '../../support/manual-clock.js';

const clock = new ManualClock(Date.UTC(2026, 2, 2, 12, 0, 0));
const keyA = parseProjectKey('svc_proj_census_a');
const keyB = parseProjectKey('svc_proj_census_b');
let api: ApiClient | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The runtimes and the part of the engine's context the census reads. */
function runtimesOf(projects: { linkCaption: string; key: typeof keyA }[]) {
  api = createApiClient({ baseUrl: 'http://127.0.0.1:9', clock, random: seededRandom(1) });
  const runtimes = new Map<string, ProjectRuntime>();
  const gates = new Map<string, CredentialGate>();
  const add = (project: { linkCaption: string; key: typeof keyA }) =>
    addProjectRuntime(
      runtimes,
      { api: api as ApiClient, reserveShare: 0.15, now: clock.now(), gates },
      project,
    );
  for (const project of projects) add(project);
  // The ceiling's sizing reads the keys' budgets and the settings (process-ceiling.ts).
  const ctx = { clock, runtimes, api, settings: engineSettings() } as unknown as EngineContext;
  const leased = (lc: string) => {
    const rt = runtimes.get(lc) as ProjectRuntime;
    rt.leaseUntil = clock.now() + 30_000;
    return rt;
  };
  return { ctx, runtimes, add, leased };
}

describe('the runtime census behind every re-plan', () => {
  it('lists who shares each key and counts the projects polled here (leased, not paused)', () => {
    const { ctx, leased } = runtimesOf([
      { linkCaption: 'a1', key: keyA },
      { linkCaption: 'a2', key: keyA },
      { linkCaption: 'b1', key: keyB },
    ]);
    const a1 = leased('a1');
    const b1 = leased('b1');
    const census = censusOf(ctx, a1);
    expect(census.sharing.get(a1.gate)?.map((r) => r.config.linkCaption)).toEqual(['a1', 'a2']);
    expect(census.sharing.get(b1.gate)?.map((r) => r.config.linkCaption)).toEqual(['b1']);
    expect(census.polledHereTotal).toBe(2);
    expect(census.polledHere.get(a1.gate)).toBe(1);
  });

  it('is counted again once a second, not at every re-plan', () => {
    const { ctx, leased } = runtimesOf([
      { linkCaption: 'a1', key: keyA },
      { linkCaption: 'b1', key: keyB },
    ]);
    const a1 = leased('a1');
    const first = censusOf(ctx, a1);
    leased('b1');
    clock.advance(999);
    expect(censusOf(ctx, a1)).toBe(first);
    clock.advance(1);
    expect(censusOf(ctx, a1).polledHereTotal).toBe(2);
  });

  it('counts a project added within the second at once, with the projects sharing its key', () => {
    const { ctx, add, leased } = runtimesOf([{ linkCaption: 'a1', key: keyA }]);
    const a1 = leased('a1');
    expect(censusOf(ctx, a1).sharing.get(a1.gate)).toHaveLength(1);
    add({ linkCaption: 'a2', key: keyA });
    const a2 = leased('a2');
    const census = censusOf(ctx, a2);
    expect(census.sharing.get(a1.gate)?.map((r) => r.config.linkCaption)).toEqual(['a1', 'a2']);
    expect(census.polledHereTotal).toBe(2);
  });

  it('keeps who shares a key from count to count while the projects are the same, and counts leases afresh', () => {
    const { ctx, leased } = runtimesOf([
      { linkCaption: 'a1', key: keyA },
      { linkCaption: 'a2', key: keyA },
    ]);
    const a1 = leased('a1');
    const first = censusOf(ctx, a1);
    leased('a2');
    clock.advance(1_000);
    const second = censusOf(ctx, a1);
    expect(second).not.toBe(first);
    expect(second.sharing).toBe(first.sharing);
    expect(second.polledHereTotal).toBe(2);
  });

  it('lists sharing afresh when a project was removed and another added between two counts', () => {
    const { ctx, runtimes, add, leased } = runtimesOf([
      { linkCaption: 'a1', key: keyA },
      { linkCaption: 'a2', key: keyA },
    ]);
    const a1 = leased('a1');
    censusOf(ctx, a1);
    runtimes.delete('a2');
    add({ linkCaption: 'a3', key: keyA });
    clock.advance(1_000);
    // Asked by a project that was there before: the count still sees that a2 left and a3 came.
    expect(
      censusOf(ctx, a1)
        .sharing.get(a1.gate)
        ?.map((r) => r.config.linkCaption),
    ).toEqual(['a1', 'a3']);
  });
});
