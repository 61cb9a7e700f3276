import { afterEach, describe, expect, it } from 'vitest';
import { parseProjectKey, RateLimitError } from '../../src/api/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { aList, aProjectResponse } from './helpers/builders.js';
import { rejection } from './helpers/sim.js';
import { json, rateHeaders, type TinyHandler } from './helpers/tiny-server.js';
import { client, closeAll, key, RAW_KEY, server } from './helpers/transport-setup.js';
import { parkedOn } from './helpers/wait.js';

afterEach(closeAll);

describe('rate limits', () => {
  const limited = (retryAfter: string) => (res: Parameters<TinyHandler>[1]) =>
    json(
      res,
      429,
      { error: 'rate_limit_exceeded', error_description: 'minute limit exceeded, retry in 30 seconds' },
      { 'Retry-After': retryAfter, ...rateHeaders({ minuteRemaining: 0 }) },
    );

  it('a 429 waits Retry-After seconds on the injected clock, then retries', async () => {
    const clock = new ManualClock();
    const s = await server((_req, res, index) =>
      index === 0 ? limited('30')(res) : json(res, 200, aList([])),
    );
    const page = client(s.url, { clock }).project('p', key).wallPage();
    await parkedOn(clock);
    clock.advance(29_999);
    expect(clock.pendingSleepers).toBe(1);
    expect(s.requests).toHaveLength(1);
    clock.advance(1);
    await page;
    expect(s.requests).toHaveLength(2);
  });

  it('while a credential waits out Retry-After, its other requests wait too and send nothing', async () => {
    const clock = new ManualClock();
    const s = await server((_req, res, index) =>
      index === 0 ? limited('10')(res) : json(res, 200, aList([])),
    );
    const api = client(s.url, { clock });
    const first = api.project('p', key).wallPage();
    await parkedOn(clock, 1);
    const second = api.project('p', key).fundingsPage();
    // Both wait on the clock before sending: nothing more can reach the server until it moves.
    await parkedOn(clock, 2);
    expect(s.requests).toHaveLength(1);

    // Another credential is not held back by this one's wait.
    const other = parseProjectKey('svc_proj_anotherKeyOfAnotherProject');
    await api.project('q', other).wallPage();
    expect(s.requests).toHaveLength(2);

    clock.advance(10_000);
    await Promise.all([first, second]);
    expect(s.requests).toHaveLength(4);
  });

  it('a Retry-After above maxRetryAfterMs throws RateLimitError with retryAfterMs, and the credential stays paused', async () => {
    const s = await server((_req, res) => limited('3600')(res));
    const api = client(s.url, { maxRetryAfterMs: 60_000 });
    const error = await rejection(api.project('p', key).wallPage());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
    const again = await rejection(api.project('p', key).fundingsPage());
    expect(again).toBeInstanceOf(RateLimitError);
    expect(s.requests).toHaveLength(1);
  });

  it('429 retries are bounded by maxRateLimitRetries', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1), { autoAdvance: true });
    const s = await server((_req, res) => limited('1')(res));
    const error = await rejection(
      client(s.url, { clock, maxRateLimitRetries: 2 }).project('p', key).wallPage(),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(s.requests).toHaveLength(3);
  });

  it('the six X-RateLimit headers become the live budget of the credential', async () => {
    const clock = new ManualClock(1_767_225_600_000);
    const s = await server((_req, res) =>
      json(
        res,
        200,
        aList([]),
        rateHeaders({
          dayLimit: 10_000,
          dayRemaining: 9_000,
          dayReset: 1_767_312_000,
          minuteLimit: 120,
          minuteRemaining: 7,
          minuteReset: 1_767_225_660,
        }),
      ),
    );
    const api = client(s.url, { clock });
    const page = await api.project('p', key).wallPage();
    const expected = {
      dayLimit: 10_000,
      dayRemaining: 9_000,
      dayResetAt: 1_767_312_000_000,
      minuteLimit: 120,
      minuteRemaining: 7,
      minuteResetAt: 1_767_225_660_000,
      observedAt: 1_767_225_600_000,
      public: false,
    };
    expect(page.budget).toEqual(expected);
    expect(page.receivedAt).toBe(1_767_225_600_000);
    expect(api.budget(parseProjectKey(RAW_KEY))).toEqual(expected);
    expect(api.budget()).toBeUndefined();
    expect(api.budget(parseProjectKey('svc_proj_someOtherKey'))).toBeUndefined();
  });

  it('unauthenticated responses fill the public budget from X-RateLimit-Public-* headers', async () => {
    const s = await server((_req, res) =>
      json(
        res,
        200,
        aProjectResponse(),
        rateHeaders({ prefix: 'X-RateLimit-Public-', minuteLimit: 30, dayLimit: 1000 }),
      ),
    );
    const api = client(s.url);
    await api.project('solar-kiosk').get();
    expect(api.budget()).toMatchObject({ public: true, minuteLimit: 30, dayLimit: 1000 });
  });
});
