import { inspect } from 'node:util';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import { HttpTransport } from '../../src/api/http-transport.js';
import {
  type ApiClient,
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  createApiClient,
  ForbiddenError,
  MalformedResponseError,
  parseProjectKey,
  parseUserKey,
  RateLimitError,
  type ResponseInfo,
  ResponseValidationError,
  UnauthorizedError,
} from '../../src/api/index.js';
import type { Random } from '../../src/lib/random.js';
import { SecretRedactor } from '../../src/lib/secret-redactor.js';
import { ManualClock } from '../support/manual-clock.js';
import { aList, aProjectResponse, aWallPost } from './helpers/builders.js';
import {
  json,
  rateHeaders,
  startTinyServer,
  type TinyHandler,
  type TinyServer,
} from './helpers/tiny-server.js';
import { parkedOn } from './helpers/wait.js';

const SECRET = 'Tr4nsp0rtS3cretKeyValue42';
const RAW_KEY = `svc_proj_${SECRET}`;
const key = parseProjectKey(RAW_KEY);
const fixed = (value: number): Random => ({ next: () => value });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: TinyHandler): Promise<TinyServer> {
  const s = await startTinyServer(handler);
  cleanups.push(() => s.close());
  return s;
}

function client(baseUrl: string, options: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  const c = createApiClient({ baseUrl, clock: new ManualClock(), random: fixed(0.5), ...options });
  cleanups.push(() => c.close());
  return c;
}

/** Everything an error can show when logged, including its causes. */
function everythingOf(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as Error;
    parts.push(String(e), e.message ?? '', e.stack ?? '', inspect(e, { depth: 10, showHidden: true }));
    try {
      parts.push(JSON.stringify(e));
    } catch {}
    current = e.cause;
  }
  return parts.join('\n');
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('authentication on the wire', () => {
  it('the credential is sent only as Authorization: Bearer', async () => {
    const s = await server((_req, res) => json(res, 200, aList([aWallPost(1)])));
    await client(s.url).project('solar-kiosk', key).wallPage();
    const [request] = s.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${RAW_KEY}`);
    expect(request?.url).not.toContain(SECRET);
    const otherHeaders = Object.entries(request?.headers ?? {}).filter(([name]) => name !== 'authorization');
    expect(JSON.stringify(otherHeaders)).not.toContain(SECRET);
  });

  it('a request without a key carries no Authorization header (public project view)', async () => {
    const s = await server((_req, res) => json(res, 200, aProjectResponse()));
    const project = await client(s.url).project('solar-kiosk').get();
    expect(project.link_caption).toBe('solar-kiosk');
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('a key never appears in errors from failed requests, even when the server echoes it', async () => {
    const s = await server((req, res) =>
      json(res, 403, {
        error: `insufficient_scope ${req.headers.authorization}`,
        error_description: `you sent ${req.headers.authorization}`,
      }),
    );
    const error = await failure(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(everythingOf(error)).not.toContain(SECRET);
    expect((error as ForbiddenError).description).toContain('[redacted]');
  });

  it('a key never appears in network and timeout errors or their causes', async () => {
    const dead = await startTinyServer(() => {});
    const deadUrl = dead.url;
    await dead.close();
    const network = await failure(client(deadUrl, { maxRetries: 0 }).project('p', key).fundingsPage());
    expect(network).toBeInstanceOf(ApiNetworkError);
    expect(everythingOf(network)).not.toContain(SECRET);

    const silent = await server(() => {});
    const timeout = await failure(
      client(silent.url, { maxRetries: 0, timeoutMs: 50 }).project('p', key).fundingsPage(),
    );
    expect(timeout).toBeInstanceOf(ApiTimeoutError);
    expect(everythingOf(timeout)).not.toContain(SECRET);
  });
});

describe('validation of responses', () => {
  it('unknown fields are accepted and the deprecated top-level project status is not relied on', async () => {
    const body = aProjectResponse({ brand_new_field: { nested: true } });
    body.status = 'legacy-anything';
    body.another_top_level = [1, 2];
    const s = await server((_req, res) => json(res, 200, body));
    const project = await client(s.url).project('solar-kiosk', key).get();
    expect(project.title).toBe('Solar Kiosk');
  });

  it('a response failing validation is a ResponseValidationError naming the field paths and the endpoint', async () => {
    const broken = aWallPost(2, {
      user: { id: 'not-a-number', first_name: 'A', last_name: 'B', display_name: 'AB' },
    });
    const s = await server((_req, res) => json(res, 200, aList([aWallPost(1), broken, { id: 3 }])));
    const error = await failure(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(ResponseValidationError);
    const validation = error as ResponseValidationError;
    expect(validation.endpoint).toBe('wall');
    expect(validation.path).toBe('/project/solar-kiosk/wall');
    expect(validation.issues.map((i) => i.path)).toContain('data.1.user.id');
    expect(validation.issues.map((i) => i.path)).toContain('data.2.message');
    expect(validation.message).toContain('data.1.user.id');
    expect(validation.message).toContain('wall');
  });

  it('malformed JSON is a typed MalformedResponseError, not a crash', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [ {"id": 1,');
    });
    const error = await failure(client(s.url).project('solar-kiosk', key).wallPage());
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as MalformedResponseError).endpoint).toBe('wall');
  });

  it('a body larger than maxResponseBytes is refused', async () => {
    const s = await server((_req, res) =>
      json(res, 200, aList([aWallPost(1, { message: 'x'.repeat(5000) })])),
    );
    const error = await failure(
      client(s.url, { maxResponseBytes: 1000, maxRetries: 0 }).project('p', key).wallPage(),
    );
    expect(error).toBeInstanceOf(ApiNetworkError);
  });
});

describe('retries', () => {
  it('4xx other than 429 are not retried', async () => {
    const s = await server((_req, res) =>
      json(res, 401, { error: 'invalid_api_key', error_description: null }),
    );
    const error = await failure(client(s.url).project('solar-kiosk', key).wallPage());
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
    const error = await failure(
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
    const error = await failure(client(s.url, { timeoutMs: 50, maxRetries: 0 }).project('p', key).wallPage());
    expect(error).toBeInstanceOf(ApiTimeoutError);
    expect((error as ApiTimeoutError).timeoutMs).toBe(50);
    expect(error.cause).toBeDefined();
  });

  it('the timeout also covers a body that stalls after the headers', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data": [');
    });
    const error = await failure(client(s.url, { timeoutMs: 80, maxRetries: 0 }).project('p', key).wallPage());
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });

  it('connection errors become ApiNetworkError with the original as cause', async () => {
    const dead = await startTinyServer(() => {});
    await dead.close();
    const error = await failure(
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
    const transport = new HttpTransport({
      baseUrl: s.url,
      clock: new ManualClock(),
      random: fixed(0),
      timeoutMs: 1000,
      maxRetries: 3,
      maxRateLimitRetries: 3,
      maxRetryAfterMs: 60_000,
      backoffBaseMs: 10,
      backoffMaxMs: 100,
      maxResponseBytes: 10_000,
      dispatcher: undefined,
      userAgent: 'test',
      onResponse: undefined,
      hedge: undefined,
      redactor: new SecretRedactor(),
    });
    cleanups.push(() => transport.close());
    const { z } = await import('zod');
    const error = await failure(
      transport.send({
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
    const error = await failure(page);
    expect(error.message).toBe('shutting down');
    expect(s.requests).toHaveLength(1);
  });
});

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
    const error = await failure(api.project('p', key).wallPage());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
    const again = await failure(api.project('p', key).fundingsPage());
    expect(again).toBeInstanceOf(RateLimitError);
    expect(s.requests).toHaveLength(1);
  });

  it('429 retries are bounded by maxRateLimitRetries', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1), { autoAdvance: true });
    const s = await server((_req, res) => limited('1')(res));
    const error = await failure(
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

describe('transport', () => {
  it('connections are pooled and kept alive across requests', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const api = client(s.url);
    for (let i = 0; i < 10; i++) await api.project('p', key).wallPage();
    expect(s.requests).toHaveLength(10);
    // undici's pool may open a second socket while the first is finishing; it never opens one per request.
    expect(s.connections()).toBeLessThanOrEqual(2);
  });

  it('the metrics hook gets method, path template, status, duration, credential and attempt, never the key', async () => {
    const infos: ResponseInfo[] = [];
    const s = await server((_req, res, index) =>
      index === 0 ? json(res, 500, { error: 'x', error_description: null }) : json(res, 200, aList([])),
    );
    await client(s.url, { random: fixed(0), onResponse: (info) => infos.push(info) })
      .project('p', key)
      .wallPage();
    expect(infos.map(({ durationMs, ...rest }) => rest)).toEqual([
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        endpoint: 'wall',
        status: 500,
        credential: 'project',
        attempt: 1,
        hedge: false,
      },
      {
        method: 'GET',
        path: '/project/{link_caption}/wall',
        endpoint: 'wall',
        status: 200,
        credential: 'project',
        attempt: 2,
        hedge: false,
      },
    ]);
    expect(infos.every((i) => i.durationMs >= 0)).toBe(true);
    expect(JSON.stringify(infos)).not.toContain(SECRET);
  });

  it('a throwing metrics hook does not break requests', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const page = await client(s.url, {
      onResponse: () => {
        throw new Error('metrics down');
      },
    })
      .project('p', key)
      .wallPage();
    expect(page.items).toEqual([]);
  });

  it('paging and filter parameters are sent as the spec names them', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const api = client(s.url);
    await api
      .project('solar kiosk/ä', key)
      .blogPage({ limit: 100, offset: 40, blogType: 'story', includeSupporterOnly: true });
    await api
      .user(parseUserKey('svc_user_abcdef'))
      .incentivesPage({ sort: 'price-d', fundable: true, isFavorite: false });
    await api.user(parseUserKey('svc_user_abcdef')).projectsPage({ sort: 'project-title-a', limit: 0 });
    expect(s.requests.map((r) => r.url)).toEqual([
      '/project/solar%20kiosk%2F%C3%A4/blog?blog_type=story&include_supporter_only=1&limit=100&offset=40',
      '/user/me/incentives?sort=price-d&fundable=1&is_favorite=0',
      '/user/me/projects?sort=project-title-a&limit=0',
    ]);
  });

  it('a base URL with a path prefix is kept', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    await client(`${s.url}/api/v1/`).project('p', key).wallPage();
    expect(s.requests[0]?.url).toBe('/api/v1/project/p/wall');
  });

  it('close() closes the own Agent but never a dispatcher passed in', async () => {
    const s = await server((_req, res) => json(res, 200, aList([])));
    const shared = new Agent();
    cleanups.push(() => shared.close());
    const borrowing = createApiClient({ baseUrl: s.url, dispatcher: shared });
    await borrowing.project('p', key).wallPage();
    await borrowing.close();
    expect(shared.closed).toBe(false);
    await expect(borrowing.project('p', key).wallPage()).rejects.toThrow(/closed/);
  });

  it('without a key a project handle offers only get() (the public view)', () => {
    const api = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    cleanups.push(() => api.close());
    const publicView = api.project('p');
    // @ts-expect-error lists need a Project API key
    expect(publicView.wallPage).toBeUndefined();
    expect(Object.keys(publicView).sort()).toEqual(['get', 'linkCaption']);
  });
});
