import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  createApiClient,
  ForbiddenError,
  parseProjectKey,
  RateLimitError,
  type ResponseInfo,
} from '../../src/api/index.js';
import { SECRET_PIECE_LENGTH } from '../../src/lib/secret-redactor.js';
import { createLogger } from '../../src/ops/logger.js';
import { ManualClock } from '../support/manual-clock.js';
import { everythingOf } from './helpers/error-text.js';
import { json, startTinyServer, type TinyHandler } from './helpers/tiny-server.js';

// A key whose secret part is long enough to have many 16-character pieces.
const BARE = 'Ech0edK3yW1thoutPref1xQ9z8y7x6w5v4u3t2s1';
const key = parseProjectKey(`svc_proj_${BARE}`);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every piece of the secret an echo could carry: the whole, and each 16-character window. */
function forbiddenPieces(): string[] {
  const pieces = [BARE];
  for (let i = 0; i + SECRET_PIECE_LENGTH <= BARE.length; i++)
    pieces.push(BARE.slice(i, i + SECRET_PIECE_LENGTH));
  return pieces;
}

function expectNoSecret(text: string): void {
  for (const piece of forbiddenPieces()) expect(text).not.toContain(piece);
}

async function run(handler: TinyHandler, maxRetries = 0) {
  const server = await startTinyServer(handler);
  const infos: ResponseInfo[] = [];
  const api = createApiClient({
    baseUrl: server.url,
    clock: new ManualClock(),
    maxRetries,
    maxRateLimitRetries: 0,
    onResponse: (info) => infos.push(info),
  });
  cleanups.push(
    () => server.close(),
    () => api.close(),
  );
  const error = await api
    .project('solar-kiosk', key)
    .wallPage()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  // What the request itself sent is the only place the key may appear.
  expect(server.requests[0]?.headers.authorization).toBe(`Bearer svc_proj_${BARE}`);
  return { error, infos };
}

/** The error as the bot would log it: a real pino logger, told no secrets by the test. */
function logged(error: unknown): string {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line) => lines.push(line) } });
  logger.error({ err: error, detail: (error as ApiError).description }, `poll failed: ${String(error)}`);
  return lines.join('');
}

describe('a server echoing the key without its svc_proj_ prefix', () => {
  const echo =
    (status: number, code: string, extra: Record<string, string> = {}): TinyHandler =>
    (req, res) => {
      const sent = String(req.headers.authorization).replace('Bearer svc_proj_', '');
      json(
        res,
        status,
        {
          error: `${code} ${sent.slice(2, 20)}`,
          error_description: `key ${sent} lacks the scope; part of it: ${sent.slice(5, 5 + SECRET_PIECE_LENGTH)}`,
        },
        { 'X-Echo-Key': sent, 'X-Echo-Piece': sent.slice(10, 30), ...extra },
      );
    };

  it('a 403 error: nothing thrown, printed, serialised or logged holds the key or a 16-character piece of it', async () => {
    const { error, infos } = await run(echo(403, 'insufficient_scope'));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).description).toContain('[redacted]');
    expectNoSecret(everythingOf(error));
    expectNoSecret(logged(error));
    expectNoSecret(JSON.stringify(infos));
  });

  it('a 429 that is not waited for, and a 5xx after retries, stay clean as well', async () => {
    const limited = await run(echo(429, 'rate_limit_exceeded', { 'Retry-After': '3600' }));
    expect(limited.error).toBeInstanceOf(RateLimitError);
    expectNoSecret(everythingOf(limited.error));
    expectNoSecret(logged(limited.error));

    const failing = await run(echo(503, 'unavailable'));
    expect(failing.error).toBeInstanceOf(ApiError);
    expect((failing.error as ApiError).status).toBe(503);
    expectNoSecret(everythingOf(failing.error));
    expectNoSecret(logged(failing.error));
  });

  it('the test can fail: the echo really carries the secret before redaction', async () => {
    // Guards the guards: if the server stopped echoing, the tests above would pass vacuously.
    const server = await startTinyServer(echo(403, 'insufficient_scope'));
    cleanups.push(() => server.close());
    const response = await fetch(`${server.url}/project/x/wall`, {
      headers: { authorization: `Bearer svc_proj_${BARE}` },
    });
    expect(response.headers.get('x-echo-key')).toBe(BARE);
    expect(await response.text()).toContain(BARE.slice(5, 5 + SECRET_PIECE_LENGTH));
  });
});
