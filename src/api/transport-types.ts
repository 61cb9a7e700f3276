import type { Agent } from 'node:http';
import type { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { Random } from '../lib/random.js';
import type { SecretRedactor } from '../lib/secret-redactor.js';
import type { ApiKey } from './credentials.js';
import type { CredentialKind, EndpointSpec } from './endpoints.js';
import type { HedgeSettings } from './hedge-policy.js';
import type { RateBudget } from './rate-budget.js';

/** What the metrics hook receives per attempt. Never the key. */
export interface ResponseInfo {
  readonly method: string;
  /** The spec's path template, e.g. `/project/{link_caption}/wall`: a low-cardinality metrics label. */
  readonly path: string;
  readonly endpoint: string;
  /** HTTP status; 0 when no response arrived (timeout, connection error). */
  readonly status: number;
  /** Wall time of this attempt (real time, also under a virtual clock). */
  readonly durationMs: number;
  readonly credential: CredentialKind;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** This is the copy of a slow GET (HedgePolicy); the other copy of the attempt is reported too. */
  readonly hedge: boolean;
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
  readonly agent: Agent | undefined;
  readonly userAgent: string;
  readonly onResponse: ((info: ResponseInfo) => void) | undefined;
  /** Copies of slow GETs; undefined: none. */
  readonly hedge: HedgeSettings | undefined;
  /** Removes keys from server text and error causes; the transport registers each key it sends with. */
  readonly redactor: SecretRedactor;
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

/** One HTTP exchange as received: status, headers, and the body as text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}
