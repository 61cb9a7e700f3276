import type { Agent } from 'node:http';
import { z } from 'zod';
import { type Clock, systemClock } from '../lib/clock.js';
import { type Random, systemRandom } from '../lib/random.js';
import { type SecretRedactor, secretRedactor } from '../lib/secret-redactor.js';
import type { ProjectKey, UserKey } from './credentials.js';
import { endpoints } from './endpoints.js';
import { DEFAULT_HEDGE_BURST, DEFAULT_HEDGE_SHARE } from './hedge-policy.js';
import { HttpTransport, type ResponseInfo } from './http-transport.js';
import { createProjectApi, type ProjectApi, type PublicProjectApi } from './project-api.js';
import type { RateBudget } from './rate-budget.js';
import { createUserApi, type UserApi } from './user-api.js';

// The handles' types, for modules that still import them from here (the index exports them too).
export type { ProjectApi, PublicProjectApi, UserApi };

export interface ApiClientOptions {
  /** Base URL of the Project Data API, e.g. the simulator's `url`. No default on purpose. */
  baseUrl: string;
  /** For backoff, Retry-After waits and `receivedAt`. Default: system clock. */
  clock?: Clock;
  /** For backoff jitter. Default: Math.random. */
  random?: Random;
  /** Per attempt, headers and body together (real time). Default 10,000. */
  timeoutMs?: number;
  /** Retries of a GET after a 5xx, timeout or connection error. Default 3. */
  maxRetries?: number;
  /** Retries after a 429 whose Retry-After was waited out. Default 3. */
  maxRateLimitRetries?: number;
  /** Longest 429 wait the client sits through; beyond it throws RateLimitError. Default 60,000. */
  maxRetryAfterMs?: number;
  /** First backoff ceiling (full jitter, doubling per retry). Default 500. */
  backoffBaseMs?: number;
  /** Largest backoff ceiling. Default 30,000. */
  backoffMaxMs?: number;
  /** Larger bodies are refused (a connection error). Default 20 MiB. */
  maxResponseBytes?: number;
  /**
   * A node:http Agent (an https.Agent for an https base URL). Default: an own keep-alive Agent,
   * closed by close(). A passed one is not closed.
   */
  agent?: Agent;
  userAgent?: string;
  /**
   * Copies of slow GETs (see HedgePolicy): a GET unanswered after `afterMs` (real time, or
   * twice the recent p95 when the API is slow overall) gets a copy, and one more after as
   * long again when that is slow too; the first answer wins; copies are at most `maxShare` (default 2 %) of the last minute's requests
   * plus `burst` (default 10), never from a credential's last tenth of its budget.
   * Default: off (every request is sent once).
   */
  hedge?: { readonly afterMs: number; readonly maxShare?: number; readonly burst?: number };
  /** Metrics hook, called once per attempt. Receives no credential. Exceptions are ignored. */
  onResponse?: (info: ResponseInfo) => void;
  /**
   * Removes keys from server text and error causes. Default: the process's one
   * `secretRedactor`, so every key the client sends with is also hidden from the logs.
   */
  redactor?: SecretRedactor;
}

export interface ApiClient {
  /** Without a key only `get()` exists (the public view). */
  project(linkCaption: string): PublicProjectApi;
  project(linkCaption: string, key: ProjectKey): ProjectApi;
  /** With a key that may be absent: narrow with `'wallPage' in handle` or check the key first. */
  project(linkCaption: string, key: ProjectKey | undefined): PublicProjectApi | ProjectApi;
  user(key: UserKey): UserApi;
  /** The OpenAPI description (public). Compare copies with diffOpenApi / checkApiDrift. */
  openapi(signal?: AbortSignal): Promise<unknown>;
  /** Latest budget reported for that credential; no key = the public (per IP) budget. */
  budget(key?: ProjectKey | UserKey): RateBudget | undefined;
  /** Epoch ms until which the API's Retry-After forbids requests with that credential; 0 when none. */
  pausedUntil(key?: ProjectKey | UserKey): number;
  /** Closes the own connection pool (not a passed agent). */
  close(): Promise<void>;
}

const openApiDocSchema = z.looseObject({ paths: z.record(z.string(), z.unknown()) });

/**
 * Creates the typed client of the Project Data API.
 *
 * @example
 * const api = createApiClient({ baseUrl: sim.url, clock });
 * const project = api.project('solar-kiosk', parseProjectKey(env.FUNDBOT_PROJECT_KEY));
 * const page = await project.fundingsPage({ limit: 100 });
 * await api.close();
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const transport = new HttpTransport({
    baseUrl: options.baseUrl,
    clock: options.clock ?? systemClock,
    random: options.random ?? systemRandom,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 3,
    maxRateLimitRetries: options.maxRateLimitRetries ?? 3,
    maxRetryAfterMs: options.maxRetryAfterMs ?? 60_000,
    backoffBaseMs: options.backoffBaseMs ?? 500,
    backoffMaxMs: options.backoffMaxMs ?? 30_000,
    maxResponseBytes: options.maxResponseBytes ?? 20 * 1024 * 1024,
    agent: options.agent,
    userAgent: options.userAgent ?? 'fundbot-api-client',
    onResponse: options.onResponse,
    hedge: options.hedge && {
      afterMs: options.hedge.afterMs,
      maxShare: options.hedge.maxShare ?? DEFAULT_HEDGE_SHARE,
      burst: options.hedge.burst ?? DEFAULT_HEDGE_BURST,
    },
    redactor: options.redactor ?? secretRedactor,
  });

  function project(linkCaption: string): PublicProjectApi;
  function project(linkCaption: string, key: ProjectKey): ProjectApi;
  function project(linkCaption: string, key: ProjectKey | undefined): PublicProjectApi | ProjectApi;
  function project(linkCaption: string, key?: ProjectKey): PublicProjectApi | ProjectApi {
    return createProjectApi(transport, linkCaption, key);
  }

  return {
    project,
    user: (key) => createUserApi(transport, key),
    async openapi(signal) {
      const result = await transport.send({
        endpoint: endpoints.openapi,
        path: endpoints.openapi.template,
        schema: openApiDocSchema,
        signal,
      });
      return result.data;
    },
    budget: (key) => transport.budget(key),
    pausedUntil: (key) => transport.pausedUntil(key),
    close: () => transport.close(),
  };
}
