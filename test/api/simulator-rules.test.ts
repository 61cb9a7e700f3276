import { afterEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/api/endpoints.js';
import {
  ApiError,
  ApiTimeoutError,
  ForbiddenError,
  MalformedResponseError,
  parseProjectKey,
  ResponseValidationError,
  UnauthorizedError,
} from '../../src/api/index.js';
import { seededRandom } from '../../src/lib/random.js';
import { allPages, rejection, type SimHarness, startHarness } from './helpers/sim.js';
import { closeAll, transport as rawTransport } from './helpers/transport-setup.js';
import { parkedOn } from './helpers/wait.js';

const LC = 'solar-kiosk';
const harnesses: SimHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await closeAll();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<SimHarness> {
  const h = await startHarness(...args);
  harnesses.push(h);
  return h;
}

describe('authentication errors', () => {
  it('a missing credential where one is required yields 401 auth_required (UnauthorizedError)', async () => {
    const { sim } = await harness();
    // The typed client cannot even express this call; the transport can.
    const transport = rawTransport(sim.url, {
      random: seededRandom(1),
      timeoutMs: 5000,
      maxRetries: 0,
      maxRateLimitRetries: 0,
      maxRetryAfterMs: 1000,
      backoffBaseMs: 1,
      backoffMaxMs: 1,
      maxResponseBytes: 1_000_000,
    });
    const { z } = await import('zod');
    const error = await rejection(
      transport.send({ endpoint: endpoints.wall, path: `/project/${LC}/wall`, schema: z.unknown() }),
    );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('auth_required');
  });

  it('an invalid or revoked key yields invalid_api_key (UnauthorizedError on 401) and the error hides the key', async () => {
    const { sim, api } = await harness();
    const raw = sim.issueProjectKey(LC);
    sim.revokeKey(raw);
    const error = await rejection(api.project(LC, parseProjectKey(raw)).wallPage());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as UnauthorizedError).code).toBe('invalid_api_key');
    expect((error as UnauthorizedError).hint).toContain('create a new Project API key');
    expect(`${error.message}${error.stack}${JSON.stringify(error)}`).not.toContain(raw.slice(9));
  });

  it.each([
    ['incentivesPage', 'incentives:read'],
    ['blogPage', 'blog:read'],
    ['wallPage', 'wall:read'],
    ['fundingsPage', 'fundings:read'],
  ] as const)(
    'a key without the scope of %s gets insufficient_scope and a hint naming %s',
    async (method, scope) => {
      const { sim, api } = await harness();
      const key = parseProjectKey(sim.issueProjectKey(LC, { scopes: ['project:read'] }));
      const error = await rejection(api.project(LC, key)[method]());
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).code).toBe('insufficient_scope');
      expect((error as ForbiddenError).hint).toBe(
        `create a Project API key with the ${scope} scope in project administration → API keys`,
      );
    },
  );

  it('a key used on another project yields key_project_mismatch', async () => {
    const { sim, api } = await harness();
    sim.createProject({ linkCaption: 'other-project' });
    const otherKey = parseProjectKey(sim.issueProjectKey('other-project'));
    const error = await rejection(api.project(LC, otherKey).wallPage());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).code).toBe('key_project_mismatch');
    expect((error as ForbiddenError).hint).toContain('belongs to another project');
  });

  it('an unknown project answers 403 project_access_denied, like an invisible one', async () => {
    const { sim, api } = await harness();
    const key = parseProjectKey(sim.issueProjectKey('no-such-project'));
    const error = await rejection(api.project('no-such-project', key).get());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).code).toBe('project_access_denied');
    expect(await rejection(api.project('no-such-project').get())).toBeInstanceOf(ForbiddenError);
  });
});

describe('pagination against the simulator', () => {
  async function withWall(count: number) {
    const h = await harness({ projects: [{ linkCaption: 'big' }] });
    const project = h.sim.project('big');
    for (let i = 0; i < count; i++)
      project.addWallPost({ message: `post ${i}`, at: h.clock.now() - (count - i) * 1000 });
    return { ...h, key: parseProjectKey(h.sim.issueProjectKey('big')) };
  }

  it('a limit above 100 is clamped silently and 0 or absent means the default 20', async () => {
    const { api, key } = await withWall(150);
    const wall = api.project('big', key);
    const big = await wall.wallPage({ limit: 500 });
    expect(big.meta.limit).toBe(100);
    expect(big.items).toHaveLength(100);
    expect((await wall.wallPage({ limit: 0 })).meta.limit).toBe(20);
    expect((await wall.wallPage()).items).toHaveLength(20);
    const tail = await wall.wallPage({ limit: 100, offset: 140 });
    expect(tail.items).toHaveLength(10);
    expect(tail.meta).toEqual({ total: 150, limit: 100, offset: 140 });
  });

  it('an empty list is one request with no items and total 0', async () => {
    const { api, key, sim } = await withWall(0);
    sim.resetRequestLog();
    const page = await api.project('big', key).wallPage({ limit: 100 });
    expect(page.items).toEqual([]);
    expect(page.meta.total).toBe(0);
    expect(sim.requests).toHaveLength(1);
  });
});

describe('rate limits against the simulator', () => {
  it('the budget figures of the X-RateLimit headers are filled in per credential', async () => {
    const { api, sim, clock } = await harness();
    const key = parseProjectKey(sim.issueProjectKey(LC));
    const page = await api.project(LC, key).wallPage();
    await api.project(LC, key).wallPage();
    const budget = api.budget(key);
    expect(budget).toMatchObject({
      minuteLimit: 120,
      dayLimit: 10_000,
      minuteRemaining: 118,
      dayRemaining: 9_998,
      public: false,
    });
    expect(budget?.minuteResetAt).toBeGreaterThan(clock.now());
    expect(budget?.dayResetAt).toBeGreaterThan(clock.now());
    expect(page.budget?.minuteRemaining).toBe(119);
    await api.project(LC).get();
    expect(api.budget()).toMatchObject({ minuteLimit: 30, dayLimit: 1000, public: true });
  });

  it('a 429 from the minute window waits Retry-After on the shared clock, then succeeds without extra requests', async () => {
    const { api, sim, clock } = await harness({ limits: { pro: { perMinute: 2, perDay: 100 } } });
    const key = parseProjectKey(sim.issueProjectKey(LC));
    const wall = api.project(LC, key);
    await wall.wallPage();
    await wall.wallPage();
    sim.resetRequestLog();
    const third = wall.wallPage();
    const fourth = (async () => {
      await parkedOn(clock, 1);
      return wall.fundingsPage();
    })();
    await parkedOn(clock, 2);
    expect(sim.requests.map((r) => r.status)).toEqual([429]);
    clock.advance(60_000);
    await Promise.all([third, fourth]);
    expect(sim.requests.map((r) => r.status)).toEqual([429, 200, 200]);
  });

  it('a 429 storm longer than maxRetryAfterMs becomes RateLimitError with retryAfterMs', async () => {
    const { sim, client } = await harness();
    const api = client({ maxRetryAfterMs: 5_000 });
    sim.faults.rateLimitStorm({ path: '/wall', retryAfterSeconds: 30 });
    const error = await rejection(api.project(LC, parseProjectKey(sim.issueProjectKey(LC))).wallPage());
    expect(error.name).toBe('RateLimitError');
    expect((error as ApiError & { retryAfterMs: number }).retryAfterMs).toBe(30_000);
  });
});

describe('faults of the simulator', () => {
  it('a 5xx is retried with backoff on the injected clock and then succeeds', async () => {
    const { sim, client } = await harness();
    const api = client({ random: { next: () => 0 } });
    sim.faults.serverError({ path: '/wall', n: 2, status: 503 });
    const page = await api.project(LC, parseProjectKey(sim.issueProjectKey(LC))).wallPage();
    expect(page.items.length).toBeGreaterThan(0);
    expect(sim.requests.filter((r) => r.path.endsWith('/wall')).map((r) => r.status)).toEqual([
      503, 503, 200,
    ]);
  });

  it('an HTML proxy error page after the retries is an ApiError of the status, not a crash', async () => {
    const { sim, client } = await harness();
    const api = client({ random: { next: () => 0 }, maxRetries: 1 });
    sim.faults.serverError({ path: '/wall', n: 5, status: 502, html: true });
    const error = await rejection(api.project(LC, parseProjectKey(sim.issueProjectKey(LC))).wallPage());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).code).toBe('http_502');
  });

  it('a malformed body is MalformedResponseError and a schema-breaking body is ResponseValidationError naming the field', async () => {
    const { sim, api } = await harness();
    const project = api.project(LC, parseProjectKey(sim.issueProjectKey(LC)));
    sim.faults.malformedJson({ path: '/fundings' });
    expect(await rejection(project.fundingsPage())).toBeInstanceOf(MalformedResponseError);
    sim.faults.schemaViolation({ path: '/wall', field: 'created_timestamp', value: 'yesterday' });
    const error = await rejection(project.wallPage());
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues[0]?.path).toBe('data.0.created_timestamp');
    expect((error as ResponseValidationError).endpoint).toBe('wall');
  });

  it('unknown fields everywhere are accepted', async () => {
    const { sim, api } = await harness();
    sim.faults.extraFields();
    const project = api.project(LC, parseProjectKey(sim.issueProjectKey(LC)));
    expect((await project.get()).link_caption).toBe(LC);
    expect((await allPages(project.incentivesPage)).length).toBe(7);
    expect((await project.incentive(102)).variant_label_1).toBe('Size');
  });

  it('an unknown error code falls back to the HTTP status family', async () => {
    const { sim, api } = await harness();
    const project = api.project(LC, parseProjectKey(sim.issueProjectKey(LC)));
    sim.faults.unknownError({ path: '/wall', code: 'quantum_flux', status: 403 });
    const error = await rejection(project.wallPage());
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).code).toBe('quantum_flux');
    sim.faults.unknownError({ path: '/wall' });
    const teapot = await rejection(project.wallPage());
    expect(teapot.constructor).toBe(ApiError);
  });

  it('a slow response runs into the per-request timeout', async () => {
    const { sim, client } = await harness();
    const api = client({ timeoutMs: 100, maxRetries: 0 });
    sim.faults.slow({ path: '/wall', delayMs: 2_000 });
    const error = await rejection(api.project(LC, parseProjectKey(sim.issueProjectKey(LC))).wallPage());
    expect(error).toBeInstanceOf(ApiTimeoutError);
  });
});
