import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { HedgePolicy } from '../../src/api/hedge-policy.js';
import {
  type ApiClient,
  ApiTimeoutError,
  createApiClient,
  parseUserKey,
  type ResponseInfo,
} from '../../src/api/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { aProjectResponse } from './helpers/builders.js';
import {
  json,
  rateHeaders,
  startTinyServer,
  type TinyHandler,
  type TinyServer,
} from './helpers/tiny-server.js';
import { cleanups, closeAll, key, transport } from './helpers/transport-setup.js';

afterEach(closeAll);

/** A server that answers with `handler`, and tells when a held request was given up by the client. */
async function server(handler: TinyHandler): Promise<TinyServer & { cancelled: Promise<number> }> {
  let markCancelled: (index: number) => void = () => {};
  const cancelled = new Promise<number>((resolve) => {
    markCancelled = resolve;
  });
  const s = await startTinyServer((req, res, index) => {
    res.on('close', () => {
      if (!res.writableFinished) markCancelled(index);
    });
    return handler(req, res, index);
  });
  cleanups.push(() => s.close());
  return { ...s, cancelled };
}

/** Never answers: the request is held until the client gives up (or the server closes). */
const hold = (_res: ServerResponse) => {};

const clock = new ManualClock();
/** A client without retries (a failed attempt is final), so each test sees exactly the copies sent. */
function client(
  baseUrl: string,
  hedge: { afterMs: number; maxShare?: number; burst?: number },
  options: { readonly timeoutMs?: number; readonly infos?: ResponseInfo[] } = {},
): ApiClient {
  const c = createApiClient({
    baseUrl,
    clock,
    hedge,
    timeoutMs: options.timeoutMs ?? 2_000,
    maxRetries: 0,
    onResponse: (info) => options.infos?.push(info),
  });
  cleanups.push(() => c.close());
  return c;
}

const budgetHeaders = (minuteRemaining: number) =>
  rateHeaders({
    minuteLimit: 120,
    minuteRemaining,
    minuteReset: Math.floor(clock.now() / 1000) + 60,
    dayReset: Math.floor(clock.now() / 1000) + 86_400,
  });

describe('hedged GETs: a copy of a slow request, the first answer wins', () => {
  it('a GET held by the server gets a copy after afterMs; the copy answers and the held one is cancelled', async () => {
    const infos: ResponseInfo[] = [];
    const s = await server((_req, res, index) =>
      index === 0 ? hold(res) : json(res, 200, aProjectResponse(), budgetHeaders(100)),
    );
    const project = await client(s.url, { afterMs: 50 }, { infos }).project('solar-kiosk', key).get();
    expect(project.link_caption).toBe('solar-kiosk');
    expect(s.requests.map((r) => r.url)).toEqual(['/project/solar-kiosk', '/project/solar-kiosk']);
    // The copy carries the same credential: it is the same request.
    expect(s.requests[1]?.headers.authorization).toBe(s.requests[0]?.headers.authorization);
    expect(await s.cancelled).toBe(0);
    expect(infos.map((i) => [i.status, i.hedge])).toEqual(
      expect.arrayContaining([
        [200, true],
        [0, false],
      ]),
    );
  });

  it('a GET answered in time is sent once', async () => {
    const s = await server((_req, res) => json(res, 200, aProjectResponse(), budgetHeaders(100)));
    const api = client(s.url, { afterMs: 1_000 });
    for (let i = 0; i < 5; i++) await api.project('solar-kiosk', key).get();
    expect(s.requests).toHaveLength(5);
  });

  it('no copy from the last tenth of a credential minute budget: the held request times out alone', async () => {
    const s = await server((_req, res, index) =>
      index === 0 ? json(res, 200, aProjectResponse(), budgetHeaders(12)) : hold(res),
    );
    const api = client(s.url, { afterMs: 50 }, { timeoutMs: 500 });
    await api.project('solar-kiosk', key).get(); // 12 of 120 left: the last tenth
    await expect(api.project('solar-kiosk', key).get()).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(s.requests).toHaveLength(2);
  });

  it('copies are capped at burst + maxShare of the minute requests: past it, a slow GET waits alone', async () => {
    const s = await server((_req, res, index) =>
      index === 1 ? json(res, 200, aProjectResponse(), budgetHeaders(100)) : hold(res),
    );
    const api = client(s.url, { afterMs: 50, maxShare: 0, burst: 1 }, { timeoutMs: 500 });
    await api.project('solar-kiosk', key).get(); // held, then answered by its copy (the one copy of the burst)
    await expect(api.project('solar-kiosk', key).get()).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(s.requests).toHaveLength(3);
  });

  it('a copy held too gets a second copy after another afterMs, and no more', async () => {
    const s = await server((_req, res, index) =>
      index < 2 ? hold(res) : json(res, 200, aProjectResponse(), budgetHeaders(100)),
    );
    const infos: ResponseInfo[] = [];
    const project = await client(s.url, { afterMs: 50 }, { infos }).project('solar-kiosk', key).get();
    expect(project.link_caption).toBe('solar-kiosk');
    expect(s.requests).toHaveLength(3);
    expect(infos.filter((i) => i.hedge && i.status === 200)).toHaveLength(1);
  });

  it('when every copy fails, the error is the first send error (what the retry policy always saw)', async () => {
    const s = await server((_req, res) => hold(res));
    const api = client(s.url, { afterMs: 50 }, { timeoutMs: 400 });
    await expect(api.project('solar-kiosk', key).get()).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(s.requests).toHaveLength(3);
  });

  it('a caller abort cancels both copies', async () => {
    const s = await server((_req, res) => hold(res));
    const api = client(s.url, { afterMs: 50 });
    const controller = new AbortController();
    const reading = api.project('solar-kiosk', key).get({ signal: controller.signal });
    await s.untilRequests(2);
    controller.abort(new Error('stopping'));
    await expect(reading).rejects.toThrow('stopping');
    expect(s.requests).toHaveLength(2);
  });

  it('a request that is not safe to repeat (POST /project) never gets a copy', async () => {
    const s = await server((_req, res) => hold(res));
    const { z } = await import('zod');
    const sending = transport(s.url, {
      clock,
      timeoutMs: 300,
      maxRateLimitRetries: 0,
      hedge: { afterMs: 20, maxShare: 1, burst: 10 },
    }).send({
      endpoint: endpoints.createProject,
      path: '/project',
      key: parseUserKey('svc_user_abc'),
      schema: z.unknown(),
    });
    await expect(sending).rejects.toBeInstanceOf(ApiTimeoutError);
    expect(s.requests).toHaveLength(1);
  });
});

describe('HedgePolicy', () => {
  const now = Date.UTC(2026, 0, 1);

  it('waits twice the recent p95 when the API is slow overall, never less than afterMs', () => {
    const policy = new HedgePolicy({ afterMs: 100, maxShare: 0.02, burst: 10 });
    expect(policy.delayMs).toBe(100);
    for (let i = 0; i < 64; i++) policy.onAnswered(400);
    expect(policy.delayMs).toBe(800);
    for (let i = 0; i < 256; i++) policy.onAnswered(10);
    expect(policy.delayMs).toBe(100);
  });

  it('allows burst + maxShare x the requests of the last minute, counted over a sliding minute', () => {
    let realTime = 0;
    const policy = new HedgePolicy({ afterMs: 100, maxShare: 0.02, burst: 2 }, () => realTime);
    const copy = () => {
      const may = policy.mayCopy(undefined, now);
      if (may) policy.onSent(true);
      return may;
    };
    expect([copy(), copy(), copy()]).toEqual([true, true, false]); // the burst
    for (let i = 0; i < 100; i++) policy.onSent(false); // 100 requests earn 2 more
    expect([copy(), copy(), copy()]).toEqual([true, true, false]);
    realTime += 30_000;
    expect(copy()).toBe(false); // still the same minute
    realTime += 40_000;
    expect([copy(), copy(), copy()]).toEqual([true, true, false]); // the old minute has gone: the burst again
  });

  it('never copies from the last tenth of a credential minute or day budget', () => {
    const policy = new HedgePolicy({ afterMs: 100, maxShare: 0.02, burst: 10 });
    const budget = {
      dayLimit: 10_000,
      dayRemaining: 5_000,
      dayResetAt: now + 3_600_000,
      minuteLimit: 120,
      minuteRemaining: 60,
      minuteResetAt: now + 30_000,
      observedAt: now,
      public: false,
    };
    expect(policy.mayCopy(budget, now)).toBe(true);
    expect(policy.mayCopy({ ...budget, minuteRemaining: 12 }, now)).toBe(false);
    expect(policy.mayCopy({ ...budget, dayRemaining: 1_000 }, now)).toBe(false);
    // A minute that has already reset says nothing about the new one.
    expect(policy.mayCopy({ ...budget, minuteRemaining: 12 }, now + 31_000)).toBe(true);
  });
});
