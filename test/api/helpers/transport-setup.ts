import { HttpTransport, type TransportOptions } from '../../../src/api/http-transport.js';
import { type ApiClient, createApiClient, parseProjectKey } from '../../../src/api/index.js';
import type { Random } from '../../../src/lib/random.js';
import { SecretRedactor } from '../../../src/lib/secret-redactor.js';
import { ManualClock } from '../../support/manual-clock.js';
import { startTinyServer, type TinyHandler, type TinyServer } from './tiny-server.js';

/**
 * Shared set-up of the transport tests (transport-*.test.ts): a project key whose secret part no error,
 * header or hook may show, a tiny server and a client per test, and the clean-up that closes them.
 */

export const SECRET = 'Tr4nsp0rtS3cretKeyValue42';
export const RAW_KEY = `svc_proj_${SECRET}`;
export const key = parseProjectKey(RAW_KEY);
/** A Random that always returns `value`: 0 waits no jitter, 0.999 waits just below each backoff ceiling. */
export const fixed = (value: number): Random => ({ next: () => value });

/** What the running test opened (servers, clients, agents), closed newest first by {@link closeAll}. */
export const cleanups: (() => Promise<void>)[] = [];

/** Closes what the test opened; each transport test file passes it to `afterEach`. */
export async function closeAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export async function server(handler: TinyHandler): Promise<TinyServer> {
  const s = await startTinyServer(handler);
  cleanups.push(() => s.close());
  return s;
}

/** A client on a ManualClock with a fixed Random (0.5), closed after the test; `options` override. */
export function client(
  baseUrl: string,
  options: Partial<Parameters<typeof createApiClient>[0]> = {},
): ApiClient {
  const c = createApiClient({ baseUrl, clock: new ManualClock(), random: fixed(0.5), ...options });
  cleanups.push(() => c.close());
  return c;
}

/**
 * The transport itself, for requests the typed client cannot express (POST /project, no
 * credential where one is needed): short test timings, no copies; `overrides` win. Closed
 * after the test.
 */
export function transport(baseUrl: string, overrides: Partial<TransportOptions> = {}): HttpTransport {
  const t = new HttpTransport({
    baseUrl,
    clock: new ManualClock(),
    random: fixed(0),
    timeoutMs: 1000,
    maxRetries: 3,
    maxRateLimitRetries: 3,
    maxRetryAfterMs: 60_000,
    backoffBaseMs: 10,
    backoffMaxMs: 100,
    maxResponseBytes: 10_000,
    agent: undefined,
    userAgent: 'test',
    onResponse: undefined,
    hedge: undefined,
    redactor: new SecretRedactor(),
    ...overrides,
  });
  cleanups.push(() => t.close());
  return t;
}
