import { describe, expect, it } from 'vitest';
import type { Project } from '../../../src/api/schemas/project.js';
import type { Cached } from '../../../src/core/ports.js';
import { lc, requestsTo, runFor, step, t0, useEngineHarness } from '../harness.js';

const startHarness = useEngineHarness();

const endOfDay = Math.floor(t0 / 86_400_000 + 1) * 86_400_000;

describe('budget-aware scheduling', () => {
  it('obeys Retry-After: no request with the key during the wait', async () => {
    const h = await startHarness();
    await step(h);
    const from = h.sim.requests.length;
    h.sim.faults.rateLimitStorm({ n: 1, retryAfterSeconds: 40 });
    await runFor(h, 3 * 60_000);
    const log = h.sim.requests.slice(from);
    const limited = log.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    // The wait is the key's: a public project read carries no credential and spends the per-IP budget
    // (api-spec.md, Limits: the limit depends on the credential), which the planner now paces all day.
    const after = log.filter(
      (r) =>
        r.credential !== 'none' && (r.at > (limited?.at ?? 0) || (r.at === limited?.at && r !== limited)),
    );
    expect(after.length).toBeGreaterThan(0);
    for (const r of after) expect(r.at).toBeGreaterThanOrEqual((limited?.at ?? 0) + 40_000);
  });

  it('causes no 429 in steady state even with tight limits, polling fundings most often', async () => {
    const h = await startHarness({ limits: { perMinute: 10, perDay: 1_500 } });
    await step(h);
    for (let i = 0; i < 36; i++) {
      h.project.addSupporter({ amount: 1 });
      if (i % 6 === 0) h.project.addWallPost({ message: `hi ${i}` });
      await runFor(h, 5 * 60_000);
    }
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(requestsTo(h.sim, '/fundings')).toBeGreaterThan(requestsTo(h.sim, '/wall'));
    expect(requestsTo(h.sim, '/wall')).toBeGreaterThan(requestsTo(h.sim, `/project/${lc}/incentives`));
  });

  it('keeps the reserve for commands until the day resets, and commands may use it', async () => {
    const h = await startHarness({ limits: { perMinute: 120, perDay: 200 } });
    await runFor(h, endOfDay - t0 - 60_000);
    // The key's budget (project reads without a credential spend the per-IP one).
    const engineRequests = h.sim.requests.filter((r) => r.at < endOfDay && r.credential === 'project').length;
    expect(engineRequests).toBeLessThanOrEqual(170);
    expect(engineRequests).toBeGreaterThan(120); // it does use what it may
    const answer = await h.engine.readModel.project(lc, 0);
    expect(answer.staleBecause).toBeUndefined();
    expect(h.sim.requests.filter((r) => r.status === 429)).toEqual([]);
  });
});

describe('read model for commands', () => {
  it('answers from the cache while fresh and makes one request when stale', async () => {
    const h = await startHarness();
    await step(h);
    const from = h.sim.requests.length;
    await h.engine.readModel.project(lc, 60_000);
    expect(h.sim.requests.length).toBe(from);
    h.clock.advance(61_000);
    await h.engine.readModel.project(lc, 60_000);
    expect(requestsTo(h.sim, `/project/${lc}`, from)).toBe(1);
  });

  it('concurrent identical refreshes share one request (single-flight)', async () => {
    const h = await startHarness();
    await step(h);
    h.clock.advance(120_000);
    const from = h.sim.requests.length;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => h?.engine.readModel.rewards(lc, 1_000)),
    );
    expect(results.every((r) => r !== undefined && r.fetchedAt === h?.clock.now())).toBe(true);
    expect(requestsTo(h.sim, '/incentives', from)).toBe(1);
  });

  it('a failed refresh returns the old value with staleBecause; with nothing cached the error is thrown', async () => {
    const h = await startHarness();
    await step(h);
    h.clock.advance(120_000);
    h.sim.faults.serverError({ path: `/project/${lc}`, n: 1 });
    const stale: Cached<Project> = await h.engine.readModel.project(lc, 1_000);
    expect(stale.value.link_caption).toBe(lc);
    expect(stale.staleBecause).toEqual({
      code: 'read-failed',
      params: { failure: 'http-error', status: 500 },
    });
    h.sim.faults.serverError({ path: /\/incentive\/\d+$/, n: 1 });
    await expect(h.engine.readModel.reward(lc, 424242, 1_000)).rejects.toThrow();
  });

  it('recent supporters come from the feed state without a request, newest first', async () => {
    const h = await startHarness();
    await step(h);
    h.project.addSupporter({ displayName: 'First', amount: 1 });
    h.clock.advance(2_000);
    h.project.addSupporter({ displayName: 'Second', amount: 1 });
    await runFor(h, 3 * 60_000);
    const from = h.sim.requests.length;
    const recent = await h.engine.readModel.recentSupporters(lc, 2);
    expect(recent.value.map((f) => f.user.display_name)).toEqual(['Second', 'First']);
    expect(h.sim.requests.length).toBe(from);
    const history = await h.engine.readModel.history(lc, 0);
    expect(history.at(-1)?.supporters).toBe(2);
  });
});

describe('scopes', () => {
  it('a key without wall:read turns wall notices off with a clear reason; the rest keeps working', async () => {
    const h = await startHarness({
      scopes: ['project:read', 'incentives:read', 'blog:read', 'fundings:read'],
    });
    await step(h);
    const status = await h.engine.readModel.status(lc);
    const wall = status.feeds.find((f) => f.feed === 'wall');
    expect(wall?.disabledReason).toEqual({
      code: 'scope-missing',
      params: { feed: 'wall', scope: 'wall:read' },
    });
    expect(h.logger.warnings.some((w) => w.includes('lacks wall:read'))).toBe(true);
    const wallRequests = requestsTo(h.sim, '/wall');
    h.project.addSupporter({ amount: 1 });
    h.project.addWallPost({ message: 'unheard' });
    // The wall costs only its re-checks, backing off to every 10 minutes (see recheck-backoff.test.ts).
    await runFor(h, 9 * 60_000);
    expect(h.recorder.ofType('supporter')).toHaveLength(1);
    expect(h.recorder.ofType('wall-post')).toHaveLength(0);
    expect(requestsTo(h.sim, '/wall') - wallRequests).toBeLessThanOrEqual(8);
  });
});
