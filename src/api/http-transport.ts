import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import { type ApiKey, revealSecret } from './credentials.js';
import type { CredentialKind, EndpointSpec } from './endpoints.js';
import {
  type ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  createApiError,
  hintFor,
  MalformedResponseError,
  RateLimitError,
  type RequestContext,
  ResponseValidationError,
} from './errors.js';
import { parseRateBudget, parseRetryAfterMs, type RateBudget } from './rate-budget.js';
import { apiErrorBodySchema } from './schemas/envelopes.js';

/** What the metrics hook receives per attempt. Never the key. */
export interface ResponseInfo {
  readonly method: string;
  /** The spec's path template, e.g. `/project/{link_caption}/wall`: a low-cardinality metrics label. */
  readonly path: string;
  readonly endpoint: string;
  /** HTTP status; 0 when no response arrived (timeout, connection error). */
  readonly status: number;
  /** Wall time of this attempt (real time, also under a ManualClock). */
  readonly durationMs: number;
  readonly credential: CredentialKind;
  /** 1 for the first attempt. */
  readonly attempt: number;
}

export interface TransportOptions {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly random: Random;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRateLimitRetries: number;
  readonly maxRetryAfterMs: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly maxResponseBytes: number;
  readonly dispatcher: Dispatcher | undefined;
  readonly userAgent: string;
  readonly onResponse: ((info: ResponseInfo) => void) | undefined;
}

export interface TransportRequest<T> {
  readonly endpoint: EndpointSpec;
  /** Filled path, e.g. `/project/solar-kiosk/wall`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly key?: ApiKey | undefined;
  readonly linkCaption?: string | undefined;
  readonly schema: z.ZodType<T>;
  readonly signal?: AbortSignal | undefined;
}

export interface TransportResult<T> {
  readonly data: T;
  /** Clock ms when the response arrived. */
  readonly receivedAt: number;
  readonly budget: RateBudget | undefined;
}

const PUBLIC = 'public';

/** Marks an abort caused by our own timeout, to tell it from the caller's abort. */
class TimeoutSignal extends Error {
  override readonly name = 'TimeoutSignal';
}

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * The one place where requests are sent: authentication, timeout, retries with
 * backoff, 429 waits, rate-budget bookkeeping, JSON decoding and validation.
 *
 * State is per transport instance (budgets and Retry-After pauses keyed by the
 * key's fingerprint), never module-global: two clients in one process do not
 * see each other.
 */
export class HttpTransport {
  readonly #options: TransportOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #origin: string;
  readonly #basePath: string;
  readonly #budgets = new Map<string, RateBudget>();
  /** Credential id → clock ms before which no request with that credential may be sent. */
  readonly #pausedUntil = new Map<string, number>();
  #closed = false;

  constructor(options: TransportOptions) {
    this.#options = options;
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(
        `the API base URL must be http(s), got ${base.protocol}: check the configured base URL`,
      );
    }
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#ownsDispatcher = options.dispatcher === undefined;
    // One Agent: keep-alive connections pooled per origin and reused by every request of this client.
    this.#dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 30_000, connections: 16 });
  }

  budget(key: ApiKey | undefined): RateBudget | undefined {
    return this.#budgets.get(credentialId(key));
  }

  /**
   * Epoch ms until which a Retry-After forbids requests with this credential (0 when none).
   * The transport is the one owner of Retry-After: schedulers read this instead of keeping their own copy.
   */
  pausedUntil(key: ApiKey | undefined): number {
    const until = this.#pausedUntil.get(credentialId(key)) ?? 0;
    return until > this.#options.clock.now() ? until : 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async send<T>(request: TransportRequest<T>): Promise<TransportResult<T>> {
    if (this.#closed) throw new Error('the API client is closed: create a new one');
    const { endpoint, key, signal } = request;
    const credId = credentialId(key);
    const context: RequestContext = {
      method: endpoint.method,
      path: request.path,
      endpoint: endpoint.id,
      credential: key?.kind ?? 'none',
      keyFingerprint: key?.fingerprint,
      linkCaption: request.linkCaption,
      scope: endpoint.scope,
    };
    const secret = key ? revealSecret(key) : undefined;
    let failures = 0;
    let rateLimited = 0;
    for (let attempt = 1; ; attempt++) {
      await this.#waitWhilePaused(credId, context, signal);
      const started = performance.now();
      let response: RawResponse;
      try {
        response = await this.#once(request, secret);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        this.#report(context, endpoint, 0, started, attempt);
        const failure = this.#networkError(error, context, secret);
        if (endpoint.idempotent && failures < this.#options.maxRetries) {
          await this.#backoff(failures++, signal);
          continue;
        }
        throw failure;
      }
      this.#report(context, endpoint, response.status, started, attempt);
      const receivedAt = this.#options.clock.now();
      const budget = parseRateBudget(response.headers, receivedAt);
      if (budget) this.#budgets.set(credId, budget);

      if (response.status >= 200 && response.status < 300) {
        return { data: this.#decode(response, request.schema, context), receivedAt, budget };
      }
      if (response.status === 429) {
        const retryAfterMs = this.#retryAfter(response, budget, receivedAt);
        if (
          retryAfterMs > this.#options.maxRetryAfterMs ||
          rateLimited >= this.#options.maxRateLimitRetries
        ) {
          this.#pause(credId, receivedAt + retryAfterMs);
          throw this.#errorFrom(response, context, secret, retryAfterMs);
        }
        rateLimited++;
        // Every request with this credential now waits out the pause, not only this one.
        this.#pause(credId, receivedAt + retryAfterMs);
        continue;
      }
      if (response.status >= 500 && endpoint.idempotent && failures < this.#options.maxRetries) {
        await this.#backoff(failures++, signal);
        continue;
      }
      // Other 4xx never succeed on retry (spec, retry behaviour).
      throw this.#errorFrom(response, context, secret, undefined);
    }
  }

  #pause(credId: string, until: number): void {
    this.#pausedUntil.set(credId, Math.max(this.#pausedUntil.get(credId) ?? 0, until));
  }

  async #waitWhilePaused(
    credId: string,
    context: RequestContext,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    for (;;) {
      const until = this.#pausedUntil.get(credId);
      if (until === undefined) return;
      const wait = until - this.#options.clock.now();
      if (wait <= 0) {
        this.#pausedUntil.delete(credId);
        return;
      }
      if (wait > this.#options.maxRetryAfterMs) {
        // The server already told us it would refuse: do not spend a request to hear it again.
        throw new RateLimitError(
          {
            status: 429,
            code: 'rate_limit_exceeded',
            description: 'still inside the Retry-After wait of an earlier response (not sent)',
            retryAfterMs: wait,
          },
          context,
          hintFor('rate_limit_exceeded', 429, context),
        );
      }
      await this.#options.clock.sleep(wait, signal);
    }
  }

  #retryAfter(response: RawResponse, budget: RateBudget | undefined, now: number): number {
    const header = parseRetryAfterMs(response.headers, now);
    if (header !== undefined) return header;
    // No Retry-After: wait for the reset of the exhausted window, else one minute (the shortest window).
    if (budget && budget.minuteRemaining === 0 && budget.minuteResetAt > now)
      return budget.minuteResetAt - now;
    if (budget && budget.dayRemaining === 0 && budget.dayResetAt > now) return budget.dayResetAt - now;
    return 60_000;
  }

  /** Full jitter (AWS architecture blog): uniform in [0, min(cap, base * 2^n)). */
  async #backoff(retryIndex: number, signal: AbortSignal | undefined): Promise<void> {
    const { backoffBaseMs, backoffMaxMs, random, clock } = this.#options;
    const ceiling = Math.min(backoffMaxMs, backoffBaseMs * 2 ** retryIndex);
    const delay = Math.floor(random.next() * ceiling);
    // A zero delay does not touch the clock: a ManualClock would park even a 0 ms sleep until advanced.
    if (delay > 0) await clock.sleep(delay, signal);
  }

  #report(
    context: RequestContext,
    endpoint: EndpointSpec,
    status: number,
    started: number,
    attempt: number,
  ): void {
    const hook = this.#options.onResponse;
    if (!hook) return;
    try {
      hook({
        method: context.method,
        path: endpoint.template,
        endpoint: endpoint.id,
        status,
        durationMs: performance.now() - started,
        credential: context.credential,
        attempt,
      });
    } catch {
      // A broken metrics hook must not break polling.
    }
  }

  async #once<T>(request: TransportRequest<T>, secret: string | undefined): Promise<RawResponse> {
    const { timeoutMs, maxResponseBytes, userAgent } = this.#options;
    const controller = new AbortController();
    // Real time on purpose: a network timeout is about the socket, and a virtual clock that
    // auto-advances (the benchmark) would otherwise fire every timeout at once.
    const timer = setTimeout(
      () => controller.abort(new TimeoutSignal(`timeout after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const caller = request.signal;
    const onCallerAbort = () => controller.abort(caller?.reason);
    if (caller?.aborted) onCallerAbort();
    else caller?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
      if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
      const response = await this.#dispatcher.request({
        origin: this.#origin,
        path: this.#basePath + request.path + queryString(request.query),
        method: request.endpoint.method,
        headers,
        signal: controller.signal,
      });
      const text = await readText(response.body, maxResponseBytes, controller.signal);
      return { status: response.statusCode, headers: response.headers, text };
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    }
  }

  #networkError(error: unknown, context: RequestContext, secret: string | undefined): ApiNetworkError {
    const cause = scrub(error, secret);
    const timedOut = isTimeout(error);
    if (timedOut) {
      return new ApiTimeoutError(
        this.#options.timeoutMs,
        context,
        'the platform is slow or unreachable: the client retried; check connectivity or raise timeoutMs',
        { cause },
      );
    }
    const code =
      typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
    const message = error instanceof Error ? redact(error.message, secret) : 'unknown failure';
    return new ApiNetworkError(
      `no response (${code ?? 'network error'}: ${message})`,
      context,
      'check the API base URL and network connectivity',
      { cause },
    );
  }

  #decode<T>(response: RawResponse, schema: z.ZodType<T>, context: RequestContext): T {
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch (error) {
      throw new MalformedResponseError(
        response.status,
        [{ path: '(root)', message: `body is not valid JSON (${response.text.length} characters)` }],
        context,
        { cause: error },
      );
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)',
        message: issue.message,
      }));
      throw new ResponseValidationError(response.status, issues, context);
    }
    return parsed.data;
  }

  #errorFrom(
    response: RawResponse,
    context: RequestContext,
    secret: string | undefined,
    retryAfterMs: number | undefined,
  ): ApiError {
    let code = `http_${response.status}`;
    let description: string | null = null;
    try {
      const body = apiErrorBodySchema.safeParse(JSON.parse(response.text));
      if (body.success) {
        code = body.data.error;
        description = body.data.error_description ?? null;
      }
    } catch {
      // A non-JSON error page (proxy, load balancer): the status decides the family.
    }
    // Server text goes into logs: never let it carry the key back, even if the server echoes it.
    return createApiError(
      {
        status: response.status,
        code: redact(code, secret),
        description: description && redact(description, secret),
        retryAfterMs,
      },
      context,
    );
  }
}

function credentialId(key: ApiKey | undefined): string {
  return key ? `${key.kind}:${key.fingerprint}` : PUBLIC;
}

function queryString(query: TransportRequest<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readText(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      throw new Error(`response body larger than ${maxBytes} bytes`);
    }
    chunks.push(buffer);
    if (signal.aborted) throw signal.reason;
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isTimeout(error: unknown): boolean {
  if (error instanceof TimeoutSignal) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return true;
  }
  return 'cause' in error && error.cause instanceof TimeoutSignal;
}

function redact(text: string, secret: string | undefined): string {
  return secret && text.includes(secret) ? text.split(secret).join('[redacted]') : text;
}

/**
 * The original error is kept as `cause` for debugging, unless some text of it
 * contains the secret (no undici error does today; this guards future versions
 * and odd proxies): then a redacted stand-in takes its place.
 */
function scrub(error: unknown, secret: string | undefined): unknown {
  if (!secret || !(error instanceof Error)) return error;
  const texts = [error.message, error.stack ?? '', safeJson(error)];
  if (!texts.some((t) => t.includes(secret))) return error;
  const standIn = new Error(redact(error.message, secret));
  standIn.name = error.name;
  standIn.stack = redact(error.stack ?? '', secret);
  return standIn;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
