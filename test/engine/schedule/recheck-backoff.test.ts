/**
 * Recovery: a key disabled and enabled again, a scope removed and added again, in the
 * simulator's project administration. The engine re-checks from seconds, backing off to
 * the 10-minute ceiling, so a fix within minutes is seen within about a minute (it was
 * seen only at the next 10-minute re-try: 8 minutes of silence after the fix), and a key
 * that stays broken costs few requests. Virtual time: a ManualClock, the real simulator.
 */
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src/simulator/index.js';
import { type EngineHarness, runFor, step, useEngineHarness, wallStatus } from '../harness.js';

const startHarness = useEngineHarness();

/** Runs steps until `check` holds; resolves with the virtual ms it took. */
async function msUntil(harness: EngineHarness, check: () => boolean | Promise<boolean>, limitMs: number) {
  const started = harness.clock.now();
  while (!(await check())) {
    if (harness.clock.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await step(harness);
  }
  return harness.clock.now() - started;
}

/** Every scope a project key can have. */
const every = ['project:read', 'incentives:read', 'blog:read', 'fundings:read', 'wall:read'] as const;

/** The key's scopes given back: the virtual ms until the engine reads the wall again (within `limitMs`). */
async function msUntilScopeBack(harness: EngineHarness, limitMs: number) {
  harness.sim.setKeyScopes(harness.rawKey, every);
  return msUntil(harness, async () => (await wallStatus(harness))?.disabledReason === undefined, limitMs);
}

/** Gaps in ms between consecutive requests. */
const gaps = (requests: readonly RequestLogEntry[]) =>
  requests.slice(1).map((r, i) => r.at - (requests[i]?.at ?? 0));

describe('re-checks of a rejected key', () => {
  it('a key enabled again 90 s after it was disabled is seen within about a minute, after 5 probes at most', async () => {
    const h = await startHarness();
    const harness = h;
    await step(harness);
    harness.sim.revokeKey(harness.rawKey);
    await msUntil(harness, () => harness.engine.status()[0]?.paused !== null, 60_000);
    const pausedAt = harness.clock.now();
    const from = harness.sim.requests.length;

    await runFor(harness, 90_000);
    const probes = harness.sim.requests.slice(from).filter((r) => r.status === 401);
    expect(probes.length).toBeGreaterThanOrEqual(3);
    expect(probes.length).toBeLessThanOrEqual(5);
    // The first probe comes within seconds, not minutes.
    expect((probes[0]?.at ?? Number.POSITIVE_INFINITY) - pausedAt).toBeLessThan(10_000);

    harness.sim.restoreKey(harness.rawKey);
    harness.project.addSupporter({ displayName: 'Back again', amount: 5 });
    const seenAfter = await msUntil(harness, () => harness.engine.status()[0]?.paused === null, 10 * 60_000);
    expect(seenAfter).toBeLessThanOrEqual(75_000);
    expect(harness.logger.records.some((r) => r.msg?.includes('accepted again'))).toBe(true);
    await runFor(harness, 60_000);
    expect(harness.recorder.ofType('supporter').map((s) => s.displayName)).toContain('Back again');
  });

  it('a key that stays broken is probed every 30-50 s (90 an hour), logging the error once', async () => {
    const h = await startHarness();
    const harness = h;
    await step(harness);
    harness.sim.revokeKey(harness.rawKey);
    const from = harness.sim.requests.length;
    await runFor(harness, 60 * 60_000);
    const probes = harness.sim.requests.slice(from).filter((r) => r.status === 401);
    // 5, 10, 20 s, then the 40 s ceiling ±25 %: about 90 in the first hour.
    expect(probes.length).toBeGreaterThanOrEqual(75);
    expect(probes.length).toBeLessThanOrEqual(110);
    for (const gap of gaps(probes).slice(4)) {
      expect(gap).toBeGreaterThanOrEqual(30_000);
      expect(gap).toBeLessThanOrEqual(50_000);
    }
    expect(harness.logger.records.filter((r) => r.level === 'error')).toHaveLength(1);
  });

  it.each([10, 120])(
    'a key enabled again after %i minutes is seen within 50 s, its supporter announced',
    async (minutes) => {
      const h = await startHarness();
      const harness = h;
      await step(harness);
      harness.sim.revokeKey(harness.rawKey);
      await runFor(harness, minutes * 60_000 + 13_000);
      expect(harness.engine.status()[0]?.paused).not.toBeNull();
      harness.sim.restoreKey(harness.rawKey);
      harness.project.addSupporter({ displayName: `Back after ${minutes}`, amount: 5 });
      const seenAfter = await msUntil(
        harness,
        () => harness.recorder.ofType('supporter').length > 0,
        5 * 60_000,
      );
      expect(seenAfter).toBeLessThanOrEqual(50_000);
      expect(harness.engine.status()[0]?.paused).toBeNull();
    },
  );
});

describe('re-checks of a missing scope', () => {
  it('wall:read added back 60 s after it was removed turns the wall on again within about a minute', async () => {
    const h = await startHarness();
    const harness = h;
    await step(harness);
    harness.sim.setKeyScopes(
      harness.rawKey,
      every.filter((s) => s !== 'wall:read'),
    );
    await msUntil(
      harness,
      async () => (await wallStatus(harness))?.disabledReason !== undefined,
      10 * 60_000,
    );
    await runFor(harness, 60_000);
    const refused = harness.sim.requests.filter((r) => r.path.endsWith('/wall') && r.status === 403);
    expect(refused.length).toBeGreaterThanOrEqual(3);

    const seenAfter = await msUntilScopeBack(harness, 10 * 60_000);
    expect(seenAfter).toBeLessThanOrEqual(60_000);
    harness.project.addWallPost({ message: 'heard again' });
    await runFor(harness, 5 * 60_000);
    expect(harness.recorder.ofType('wall-post').map((w) => w.message)).toEqual(['heard again']);
  });
});

describe('re-checks of a scope, by whether the project ever had it', () => {
  const withoutWall = every.filter((s) => s !== 'wall:read');

  it('wall:read lost for 45 minutes and added back is seen within 50 s (it was read before: an outage)', async () => {
    const h = await startHarness();
    const harness = h;
    await runFor(harness, 2 * 60_000);
    harness.sim.setKeyScopes(harness.rawKey, withoutWall);
    await runFor(harness, 45 * 60_000 + 17_000);
    expect((await wallStatus(harness))?.disabledReason).toBeDefined();
    const seenAfter = await msUntilScopeBack(harness, 10 * 60_000);
    expect(seenAfter).toBeLessThanOrEqual(50_000);
  });

  it('a key made without wall:read is re-checked slowly: at most every 10 minutes once backed off', async () => {
    const h = await startHarness({ scopes: withoutWall });
    const harness = h;
    await runFor(harness, 60 * 60_000);
    const rechecks = harness.sim.requests.filter((r) => r.path.endsWith('/wall') && r.status === 403);
    // 5 s doubling to 10 minutes: about 12 in the first hour (the lost scope above: about 90).
    expect(rechecks.length).toBeGreaterThanOrEqual(8);
    expect(rechecks.length).toBeLessThanOrEqual(15);
    const seenAfter = await msUntilScopeBack(harness, 20 * 60_000);
    expect(seenAfter).toBeLessThanOrEqual(12.5 * 60_000);
  });
});
