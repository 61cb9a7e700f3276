import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  ApiError,
  ConflictError,
  createApiClient,
  ForbiddenError,
  NotFoundError,
  parseProjectKey,
  parseUserKey,
  RateLimitError,
  UnauthorizedError,
  ValidationError,
} from '../../src/api/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { json, startTinyServer, type TinyServer } from './helpers/tiny-server.js';

/** The server answers `/project/<status>:<code>/wall` with that status and `error` code. */
let server: TinyServer;
let api: ApiClient;
let keys = 0;

beforeAll(async () => {
  server = await startTinyServer((req, res) => {
    const [status, code] = decodeURIComponent((req.url ?? '').split('/')[2] ?? '').split(':');
    if (code === 'no-json') {
      res.writeHead(Number(status), { 'content-type': 'text/html' });
      res.end('<html>Bad Gateway</html>');
      return;
    }
    const prose = code?.includes(' ');
    json(res, Number(status), { error: code, error_description: prose ? null : `description of ${code}` });
  });
  api = createApiClient({
    baseUrl: server.url,
    clock: new ManualClock(),
    maxRetries: 0,
    maxRateLimitRetries: 0,
  });
});
afterAll(async () => {
  await api.close();
  await server.close();
});

async function errorFor(status: number, code: string): Promise<ApiError> {
  try {
    // A fresh key per call: a 429 pauses its credential, which must not stall the other cases.
    await api.project(`${status}:${code}`, parseProjectKey(`svc_proj_errorsTestKey${keys++}`)).wallPage();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected an error');
}

describe('error families', () => {
  const table: [number, string, new (...args: never[]) => ApiError][] = [
    [401, 'auth_required', UnauthorizedError],
    [403, 'forbidden', ForbiddenError],
    [403, 'insufficient_project_plan', ForbiddenError],
    [403, 'insufficient_role', ForbiddenError],
    [403, 'insufficient_scope', ForbiddenError],
    [401, 'invalid_api_key', UnauthorizedError],
    [403, 'invalid_api_key', ForbiddenError],
    [403, 'invalid_csrf_token', ForbiddenError],
    [401, 'invalid_token', UnauthorizedError],
    [400, 'invalid_value', ValidationError],
    [403, 'key_project_mismatch', ForbiddenError],
    [400, 'missing_field', ValidationError],
    [404, 'not_found', NotFoundError],
    [403, 'project_access_denied', ForbiddenError],
    [404, 'project_not_found', NotFoundError],
    [429, 'rate_limit_exceeded', RateLimitError],
    [401, 'user_not_found', UnauthorizedError],
    [403, 'funding_not_successful', ForbiddenError],
    [422, 'gallery_full', ValidationError],
    [409, 'conflict', ConflictError],
  ];
  it.each(table)(
    'HTTP %i %s is a %o carrying code, status, method, path and description',
    async (status, code, family) => {
      const error = await errorFor(status, code);
      expect(error).toBeInstanceOf(family);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.method).toBe('GET');
      expect(error.path).toBe(`/project/${status}%3A${code}/wall`);
      expect(error.description).toBe(`description of ${code}`);
      expect(error.name).toBe(family.name);
    },
  );

  it('framework-level prose codes fall back to the HTTP status family', async () => {
    expect(await errorFor(403, 'access denied')).toBeInstanceOf(ForbiddenError);
    expect(await errorFor(400, 'bad request')).toBeInstanceOf(ValidationError);
    expect(await errorFor(400, 'invalid content type')).toBeInstanceOf(ValidationError);
    expect(await errorFor(403, 'invalid csrf token')).toBeInstanceOf(ForbiddenError);
    const notFound = await errorFor(404, 'resource not found');
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.code).toBe('resource not found');
    expect(notFound.description).toBeNull();
  });

  it('unknown codes fall back to the HTTP status family', async () => {
    expect(await errorFor(401, 'token_from_the_future')).toBeInstanceOf(UnauthorizedError);
    expect(await errorFor(403, 'brand_new_denial')).toBeInstanceOf(ForbiddenError);
    expect(await errorFor(404, 'gone_fishing')).toBeInstanceOf(NotFoundError);
    expect(await errorFor(422, 'too_shiny')).toBeInstanceOf(ValidationError);
    expect(await errorFor(409, 'whatever')).toBeInstanceOf(ConflictError);
    const teapot = await errorFor(418, 'teapot');
    expect(teapot.constructor).toBe(ApiError);
    expect(teapot.code).toBe('teapot');
  });

  it('an error body that is not JSON still gives the status family, with code http_<status>', async () => {
    const error = await errorFor(403, 'no-json');
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.code).toBe('http_403');
    expect(error.description).toBeNull();
  });
});

describe('hints say what to do', () => {
  it('insufficient_scope names the scope the endpoint needs, from the spec table, without parsing the description', async () => {
    const error = await errorFor(403, 'insufficient_scope');
    expect(error.hint).toBe(
      'create a Project API key with the wall:read scope in project administration → API keys',
    );
    expect(error.message).toContain('wall:read');
  });

  it('insufficient_scope on a user endpoint names the User API key scope and where to create it', async () => {
    const s = await startTinyServer((_req, res) =>
      json(res, 403, { error: 'insufficient_scope', error_description: 'x' }),
    );
    const c = createApiClient({ baseUrl: s.url, clock: new ManualClock() });
    try {
      const error = await c
        .user(parseUserKey('svc_user_abc'))
        .projectsPage()
        .then(
          () => {
            throw new Error('expected a 403');
          },
          (e: unknown) => e as ApiError,
        );
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error.hint).toBe(
        'create a User API key with the project:read scope in account settings → API and integrations',
      );
    } finally {
      await c.close();
      await s.close();
    }
  });

  it('key_project_mismatch says the key belongs to another project', async () => {
    const error = await errorFor(403, 'key_project_mismatch');
    expect(error.hint).toMatch(/^the key belongs to another project/);
  });

  it('every known code and every status family has a hint', async () => {
    for (const [status, code] of [
      [401, 'invalid_api_key'],
      [403, 'funding_not_successful'],
      [403, 'project_access_denied'],
      [403, 'insufficient_project_plan'],
      [401, 'mystery'],
      [403, 'mystery'],
      [404, 'mystery'],
    ] as const) {
      expect((await errorFor(status, code)).hint.length).toBeGreaterThan(10);
    }
  });
});
