import { afterEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  parseUserKey,
  UnauthorizedError,
} from '../../src/api/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { aList, aWallPost } from './helpers/builders.js';
import { rejection } from './helpers/sim.js';
import { json, startTinyServer } from './helpers/tiny-server.js';
import { client, closeAll, fixed, key, server, transport } from './helpers/transport-setup.js';
import { parkedOn } from './helpers/wait.js';

afterEach(closeAll);

describe('retries', () => {
  it('4xx other than 429 are not retried', async () => {
    const s = await server((_req, res) =>
      json(res, 401, { error: 'invalid_api_key', error_description: null }),
    );
    const error = await rejection(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(s.requests).toHaveLength(1);
  });

  it('5xx on a GET is retried with exponential backoff and full jitter on the injected clock', async () => {
    const clock = new ManualClock();
    const s = await server((_req, res, index) =>
      index < 2
        ? json(res, 503, { error: 'unavailable', error_description: null })
        : json(res, 200, aList([])),
    );
    // random 0.999: each wait is just below its ceiling (500 ms, then 1000 ms).
    const api = client(s.url, { clock, random: fixed(0.999), backoffBaseMs: 500 });
    const page = api.project('p', key).wallPage();
    await parkedOn(clock);
    clock.advance(498);
    // Still parked: advance() wakes due sleepers synchronously, so a released retry would show here.
    expect(clock.pendingSleepers).toBe(1);
    expect(s.requests).toHaveLength(1);
    clock.advance(1);
    expect(clock.pendingSleepers).toBe(0);
    await parkedOn(clock);
    expect(s.requests).toHaveLength(2);
    clock.advance(998);
    expect(clock.pendingSleepers).toBe(1);
    expect(s.requests).toHaveLength(2);
    clock.advance(1);
    expect((await page).items).toEqual([]);
    expect(s.requests).toHaveLength(3);
  });

  it('5xx retries are bounded by maxRetries, then the ApiError is thrown', async () => {
    const s = await server((_req, res) => json(res, 500, { error: 'boom', error_description: 'internal' }));
    const error = await rejection(
      client(s.url, { maxRetries: 2, random: fixed(0) })
        .project('p', key)
        .wallPage(),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    expect(s.requests).toHaveLength(3);
  });

  it('a timeout on a GET is retried, and each attempt has its own timeout', async () => {
    const s = await server((_req, res, index) => {
      if (index > 0) json(res, 200, aList([aWallPost(1)]));
    });
    const page = await client(s.url, { timeoutMs: 1_000, random: fixed(0) })
      .project('p', key)
      .wallPage();
    expect(page.items).toHaveLength(1);
    expect(s.requests).toHaveLength(2);
  });

  it('every request has a timeout: a silent server gives ApiTimeoutError with the original as cause', async () => {
    const s = await server(() => {});
    const error = await rejection(
      client(s.url, { timeoutMs: 50, maxRetries: 0 }).project('p', key).wallPage(),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(50);
    expect(error.cause).toBeDefined();
  });

  it('the timeout also covers a body that stalls after the headers', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    const error = await rejection(
      client(s.url, { timeoutMs: 80, maxRetries: 0 }).project('p', key).wallPage(),
    );
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('connection errors become ApiNetworkError with the original as cause', async () => {
    const dead = await startTinyServer(() => {});
    await dead.close();
    const error = await rejection(
      client(dead.url, { maxRetries: 1, random: fixed(0) })
        .project('p', key)
        .wallPage(),
    );
    expect(error).toBeInstanceOf(ApiNetworkError);
    expect(error).not.toBeInstanceOf(ApiTimeoutError);
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a non-idempotent request (POST /project) is never retried after a 5xx or a timeout', async () => {
    const s = await server((_req, res) => json(res, 502, { error: 'bad gateway', error_description: null }));
    const { z } = await import('zod');
    const error = await rejection(
      transport(s.url).send({
        endpoint: endpoints.createProject,
        path: '/project',
        key: parseUserKey('svc_user_abc'),
        schema: z.unknown(),
      }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(s.requests).toHaveLength(1);
    expect(endpoints.wall.idempotent).toBe(true);
  });

  it('a caller abort cancels the request and is not retried', async () => {
    const s = await server(() => {});
    const controller = new AbortController();
    const page = client(s.url).project('p', key).wallPage({ signal: controller.signal });
    await s.untilRequests(1);
    controller.abort(new Error('shutting down'));
    const error = await rejection(page);
    expect(error.message).toBe('shutting down');
    expect(s.requests).toHaveLength(1);
  });
});
