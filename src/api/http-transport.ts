import { performance } from 'node:perf_hooks';
import type { AttemptCancel } from './attempt-cancel.js';
import { type ApiKey, revealSecret } from './credentials.js';
import { decodeResponse } from './decode-response.js';
import type { EndpointSpec } from './endpoints.js';
import type { RequestContext } from './errors.js';
import { HedgePolicy } from './hedge-policy.js';
import { hedgedAttempt } from './hedged-attempt.js';
import { parseRateBudget, type RateBudget } from './rate-budget.js';
import { RetryAfterPauses, retryAfterMsOf } from './retry-after-pauses.js';
import { RetryPolicy } from './retry-policy.js';
import { type AttemptTarget, createAgent, sendAttempt } from './send-attempt.js';
import { errorFromResponse, networkErrorFrom } from './transport-errors.js';
import type { RawResponse, TransportOptions, TransportRequest, TransportResult } from './transport-types.js';

export type { ResponseInfo, TransportOptions, TransportRequest, TransportResult } from './transport-types.js';

const PUBLIC = 'public';

/**
 * The one place where requests are sent: authentication, timeout, retries with
 * backoff (RetryPolicy), 429 waits (RetryAfterPauses), rate-budget bookkeeping,
 * decoding and validation (decodeResponse), typed errors (transport-errors.ts).
 *
 * State is per transport instance (budgets and Retry-After pauses keyed by the
 * key's fingerprint), never module-global: two clients in one process do not
 * see each other.
 */
export class HttpTransport {
  readonly #options: TransportOptions;
  readonly #target: AttemptTarget;
  readonly #ownsAgent: boolean;
  readonly #budgets = new Map<string, RateBudget>();
  readonly #pauses: RetryAfterPauses;
  readonly #retries: RetryPolicy;
  /** Undefined: no copies of slow GETs (createApiClient's `hedge`). */
  readonly #hedges: HedgePolicy | undefined;
  #closed = false;

  constructor(options: TransportOptions) {
    this.#options = options;
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(
        `the API base URL must be http(s), got ${base.protocol}: check the configured base URL`,
      );
    }
    this.#ownsAgent = options.agent === undefined;
    this.#target = {
      // One Agent: keep-alive connections pooled per origin and reused by every request of this client.
      // The callers bound how many requests run at once (48 projects polling, 64 key checks at start,
      // commands): the pool only caps the total. A slow answer holds its connection until it comes,
      // so a small pool made 1% of slow requests stall everybody (16 connections: the first poll of
      // 1,000 projects took 37 s; 128: 13 s, bench `scale`).
      agent: options.agent ?? createAgent(base, 128),
      origin: base,
      hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
      basePath: base.pathname.replace(/\/+$/, ''),
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      userAgent: options.userAgent,
    };
    this.#pauses = new RetryAfterPauses(options.clock, options.maxRetryAfterMs);
    this.#retries = new RetryPolicy(options);
    this.#hedges = options.hedge === undefined ? undefined : new HedgePolicy(options.hedge);
  }

  budget(key: ApiKey | undefined): RateBudget | undefined {
    return this.#budgets.get(credentialId(key));
  }

  /**
   * Epoch ms until which a Retry-After forbids requests with this credential (0 when none).
   * The transport is the one owner of Retry-After: schedulers read this instead of keeping their own copy.
   */
  pausedUntil(key: ApiKey | undefined): number {
    return this.#pauses.pausedUntil(credentialId(key));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsAgent) this.#target.agent.destroy();
  }

  async send<T>(request: TransportRequest<T>): Promise<TransportResult<T>> {
    if (this.#closed) throw new Error('the API client is closed: create a new one');
    const { endpoint, key, signal } = request;
    const { clock, redactor, maxRetryAfterMs, maxRateLimitRetries } = this.#options;
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
    // Whatever echoes the key later (server text, a library's error) is redacted, here and in the logs.
    redactor.register(secret);
    let failures = 0;
    let rateLimited = 0;
    for (let attempt = 1; ; attempt++) {
      await this.#pauses.waitWhilePaused(credId, context, signal);
      let response: RawResponse;
      try {
        response = await this.#exchange(request, secret, context, credId, attempt);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const failure = networkErrorFrom(error, context, redactor, this.#options.timeoutMs);
        if (this.#retries.mayRetry(endpoint, failures)) {
          await this.#retries.waitBeforeRetry(++failures, signal);
          continue;
        }
        throw failure;
      }
      const receivedAt = clock.now();
      const budget = parseRateBudget(response.headers, receivedAt);
      if (budget) this.#budgets.set(credId, budget);

      if (response.status >= 200 && response.status < 300) {
        return { data: decodeResponse(response, request.schema, context), receivedAt, budget };
      }
      if (response.status === 429) {
        const retryAfterMs = retryAfterMsOf(response, budget, receivedAt);
        // Every request with this credential now waits out the pause, not only this one.
        this.#pauses.pause(credId, receivedAt + retryAfterMs);
        if (retryAfterMs > maxRetryAfterMs || rateLimited >= maxRateLimitRetries) {
          throw errorFromResponse(response, context, redactor, retryAfterMs);
        }
        rateLimited++;
        continue;
      }
      if (response.status >= 500 && this.#retries.mayRetry(endpoint, failures)) {
        await this.#retries.waitBeforeRetry(++failures, signal);
        continue;
      }
      // Other 4xx never succeed on retry (spec, retry behaviour).
      throw errorFromResponse(response, context, redactor, undefined);
    }
  }

  /**
   * One attempt on the wire, with its copy when it is a GET that stays unanswered
   * (HedgePolicy: a small share of the requests, never from a credential's last tenth).
   * Each copy is reported to the metrics hook on its own: each costs budget.
   */
  #exchange(
    request: TransportRequest<unknown>,
    secret: string | undefined,
    context: RequestContext,
    credId: string,
    attempt: number,
  ): Promise<RawResponse> {
    const hedges = this.#hedges;
    const once = async (cancel: AttemptCancel | undefined, hedge: boolean): Promise<RawResponse> => {
      const started = performance.now();
      hedges?.onSent(hedge);
      try {
        const response = await sendAttempt(this.#target, request, secret, cancel);
        const durationMs = performance.now() - started;
        hedges?.onAnswered(durationMs);
        this.#report(context, request.endpoint, response.status, durationMs, attempt, hedge);
        return response;
      } catch (error) {
        this.#report(context, request.endpoint, 0, performance.now() - started, attempt, hedge);
        throw error;
      }
    };
    if (hedges === undefined || !request.endpoint.idempotent || hedges.delayMs >= this.#options.timeoutMs) {
      return once(undefined, false);
    }
    const { clock } = this.#options;
    return hedgedAttempt(once, hedges.delayMs, () => {
      const now = clock.now();
      if (this.#closed || this.#pauses.pausedUntil(credId) > now) return false;
      return hedges.mayCopy(this.#budgets.get(credId), now);
    });
  }

  #report(
    context: RequestContext,
    endpoint: EndpointSpec,
    status: number,
    durationMs: number,
    attempt: number,
    hedge: boolean,
  ): void {
    const hook = this.#options.onResponse;
    if (!hook) return;
    try {
      hook({
        method: context.method,
        path: endpoint.template,
        endpoint: endpoint.id,
        status,
        durationMs,
        credential: context.credential,
        attempt,
        hedge,
      });
    } catch {
      // A broken metrics hook must not break polling.
    }
  }
}

/** The key of per-credential state: kind and fingerprint, or `public` without a key. Never the secret. */
function credentialId(key: ApiKey | undefined): string {
  return key ? `${key.kind}:${key.fingerprint}` : PUBLIC;
}
