import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { get, type Harness, projectSeed, startHarness } from './helpers.js';

let h: Harness;
let sim: Simulator;
let key: string;

beforeEach(async () => {
  h = await startHarness({ projects: [projectSeed({ linkCaption: 'p', fundingThreshold: 100 })] });
  sim = h.sim;
  key = sim.issueProjectKey('p');
  const p = sim.project('p');
  for (let i = 0; i < 10; i++) {
    p.addSupporter({ amount: 20 });
    p.addWallPost({ message: `m${i}` });
    h.clock.advance(1000);
  }
});
afterEach(() => sim.close());

describe('fault injection', () => {
  it('answers the next n matching requests with a 5xx, then recovers', async () => {
    sim.faults.serverError({ status: 503, n: 2, path: '/wall' });
    expect((await get(sim, '/project/p/fundings', key)).status).toBe(200);
    expect((await get(sim, '/project/p/wall', key)).status).toBe(503);
    expect((await get(sim, '/project/p/wall', key)).status).toBe(503);
    expect((await get(sim, '/project/p/wall', key)).status).toBe(200);
    expect(sim.requests.map((r) => r.fault ?? '-')).toEqual(['-', 'server-error', 'server-error', '-']);
  });

  it('sends an HTML proxy page when asked', async () => {
    sim.faults.serverError({ status: 502, html: true });
    const res = await get(sim, '/project/p', key);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('text/html');
  });

  it('storms 429 with Retry-After without touching the real rate limit', async () => {
    sim.faults.rateLimitStorm({ n: 2, retryAfterSeconds: 7 });
    const first = await get(sim, '/project/p', key);
    expect([first.status, first.body.error, first.headers.get('retry-after')]).toEqual([
      429,
      'rate_limit_exceeded',
      '7',
    ]);
    await get(sim, '/project/p', key);
    const ok = await get(sim, '/project/p', key);
    expect(ok.headers.get('x-ratelimit-minute-remaining')).toBe('119');
  });

  it('sends a malformed JSON body with status 200', async () => {
    sim.faults.malformedJson();
    const res = await fetch(`${sim.url}/project/p/wall`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
  });

  it('breaks the schema of the first item (a number becomes a string) or of a chosen field', async () => {
    sim.faults.schemaViolation({ path: '/fundings' });
    const res = await get(sim, '/project/p/fundings', key);
    expect(typeof res.body.data[0].support_timestamp).toBe('string');
    expect(typeof res.body.data[1].support_timestamp).toBe('number');
    sim.faults.schemaViolation({ field: 'current_funding', value: null });
    expect((await get(sim, '/project/p', key)).body.project.current_funding).toBeNull();
  });

  it('adds unknown fields to the envelope and every item until cleared', async () => {
    sim.faults.extraFields();
    const res = await get(sim, '/project/p/wall', key);
    expect(res.body.data.every((w: Record<string, unknown>) => 'x_future_field' in w)).toBe(true);
    expect(res.body).toHaveProperty('x_future_envelope_field');
    expect(res.body.meta.total).toBe(10);
    sim.faults.clear();
    expect((await get(sim, '/project/p/wall', key)).body.data[0]).not.toHaveProperty('x_future_field');
  });

  it('answers unknown error codes with the given status', async () => {
    sim.faults.unknownError({ path: '/project/p' });
    const res = await get(sim, '/project/p', key);
    expect([res.status, res.body.error]).toEqual([418, 'quantum_flux']);
    sim.faults.unknownError({ code: 'temporal_anomaly', status: 409, description: null });
    expect((await get(sim, '/project/p', key)).body).toEqual({
      error: 'temporal_anomaly',
      error_description: null,
    });
  });

  it('delays responses in real time so a client timeout fires, and logs the abandoned request', async () => {
    // The hang-up must come after the request reached the server (a loaded machine can take tens of ms, at times
    // hundreds, to connect: a 50 ms abort there left no request to log) and well before the slow reply is due.
    sim.faults.slow({ delayMs: 2_000 });
    await expect(
      fetch(`${sim.url}/project/p`, {
        headers: { authorization: `Bearer ${key}` },
        signal: AbortSignal.timeout(500),
      }),
    ).rejects.toThrow();
    // The abandoned request is logged when the connection closes (or at the latest when the simulator closes).
    await vi.waitFor(
      () => expect(sim.requests.at(-1)).toMatchObject({ path: '/project/p', status: 499, fault: 'slow' }),
      { timeout: 5000 },
    );
  });

  it('injects random 5xx at the given rate from the seeded random, deterministically', async () => {
    const statuses = async (s: Simulator) => {
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await get(s, '/project/unknown')).status);
      return out;
    };
    sim.setLimits({ public: { perMinute: 10_000, perDay: 10_000 } });
    sim.faults.injectRandom5xx(0.3);
    const first = await statuses(sim);
    const failures = first.filter((s) => s === 503).length;
    expect(failures).toBeGreaterThan(3);
    expect(failures).toBeLessThan(25);
    expect(first.filter((s) => s !== 503).every((s) => s === 403)).toBe(true);
    const twin = await startHarness({
      projects: [],
      limits: { public: { perMinute: 10_000, perDay: 10_000 } },
    });
    try {
      twin.sim.faults.injectRandom5xx(0.3);
      expect(await statuses(twin.sim)).toEqual(first);
    } finally {
      await twin.sim.close();
    }
    expect(sim.faults.stats.applied['random-5xx']).toBe(failures);
  });

  it('holds a seeded share of the matching requests for the given real time', async () => {
    sim.faults.injectRandomSlow(0.25, 150, { path: '/wall' });
    const heldMs: number[] = [];
    for (let i = 0; i < 24; i++) {
      const started = performance.now();
      expect((await get(sim, '/project/p/wall', key)).status).toBe(200);
      if (sim.requests.at(-1)?.fault === 'random-slow') heldMs.push(performance.now() - started);
    }
    expect(heldMs.length).toBeGreaterThan(0);
    expect(heldMs.length).toBeLessThan(16);
    for (const ms of heldMs) expect(ms).toBeGreaterThanOrEqual(145);
    expect(sim.faults.stats.applied['random-slow']).toBe(heldMs.length);
    // Other paths are not held; 0 turns it off.
    expect((await get(sim, '/project/p/fundings', key)).status).toBe(200);
    expect(sim.requests.at(-1)?.fault).toBeUndefined();
    sim.faults.injectRandomSlow(0, 150);
    for (let i = 0; i < 8; i++) await get(sim, '/project/p/wall', key);
    expect(sim.faults.stats.applied['random-slow']).toBe(heldMs.length);
  });

  describe('shiftBetweenPages', () => {
    const page = async (path: string, offset: number) =>
      (await get(sim, `${path}?limit=5&offset=${offset}`, key)).body.data as {
        id?: number;
        user: { id: number };
      }[];

    it('inserts new entries between page requests so a newest-first page repeats entries', async () => {
      sim.faults.shiftBetweenPages({ insert: 2 });
      const first = await page('/project/p/wall', 0);
      const second = await page('/project/p/wall', 5);
      const ids = [...first, ...second].map((w) => w.id);
      expect(new Set(ids).size).toBe(8);
      expect(second.slice(0, 2).map((w) => w.id)).toEqual(first.slice(3, 5).map((w) => w.id));
      expect(sim.project('p').snapshot().wall).toHaveLength(12);
    });

    it('removes already seen entries so the next page skips some', async () => {
      sim.faults.shiftBetweenPages({ insert: 0, remove: 2 });
      const before = sim
        .project('p')
        .snapshot()
        .fundings.map((f) => f.user.id)
        .reverse();
      const first = await page('/project/p/fundings', 0);
      const second = await page('/project/p/fundings', 5);
      const seen = new Set([...first, ...second].map((f) => f.user.id));
      const missed = before.filter((id) => !seen.has(id));
      expect(missed.length).toBeGreaterThanOrEqual(2);
      expect(sim.project('p').snapshot().failedSupports).toHaveLength(2);
      expect(sim.faults.stats.applied['shift-between-pages']).toBe(1);
    });

    it("names the supporters it adds in the project's history, so a benchmark can score the scenario's apart", async () => {
      sim.project('p').addSupporter({ displayName: 'Scenario Fan' });
      sim.faults.shiftBetweenPages({ insert: 2 });
      await page('/project/p/fundings', 0);
      await page('/project/p/fundings', 5);
      const added = sim
        .project('p')
        .history.filter((h) => h.type === 'supporter')
        .slice(-3)
        .map((h) => (h.type === 'supporter' ? [h.displayName, h.madeByFault] : []));
      expect(added[0]).toEqual(['Scenario Fan', undefined]);
      expect(added.slice(1).map((a) => a[1])).toEqual(['shift-between-pages', 'shift-between-pages']);
    });

    it('does not shift the first page request', async () => {
      sim.faults.shiftBetweenPages({ insert: 3 });
      await page('/project/p/wall', 0);
      await page('/project/p/wall', 0);
      expect(sim.project('p').snapshot().wall).toHaveLength(10);
    });
  });
});
