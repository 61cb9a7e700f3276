import type { SecretRedactor } from '../lib/secret-redactor.js';
import {
  type ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  createApiError,
  type RequestContext,
} from './errors.js';
import { apiErrorBodySchema } from './schemas/envelopes.js';
import { isTimeout } from './send-attempt.js';
import type { RawResponse } from './transport-types.js';

/**
 * The typed error of an error response. Server text goes into logs: the code and
 * description pass through the redactor, so a server echoing the key (whole, without
 * its prefix, or a piece of it) cannot carry it out.
 */
export function errorFromResponse(
  response: RawResponse,
  context: RequestContext,
  redactor: SecretRedactor,
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
  return createApiError(
    {
      status: response.status,
      code: redactor.redact(code),
      description: description && redactor.redact(description),
      retryAfterMs,
    },
    context,
  );
}

/** The typed error when no response arrived: ApiTimeoutError or ApiNetworkError, the original as (redacted) cause. */
export function networkErrorFrom(
  error: unknown,
  context: RequestContext,
  redactor: SecretRedactor,
  timeoutMs: number,
): ApiNetworkError {
  const cause = redactedCause(error, redactor);
  if (isTimeout(error)) {
    return new ApiTimeoutError(
      timeoutMs,
      context,
      'the platform is slow or unreachable: the client retried; check connectivity or raise timeoutMs',
      { cause },
    );
  }
  const code = errorCode(error);
  const message = error instanceof Error ? redactor.redact(error.message) : 'unknown failure';
  return new ApiNetworkError(
    `no response (${code ?? 'network error'}: ${message})`,
    context,
    'check the API base URL and network connectivity',
    { cause },
  );
}

/**
 * The original error is kept as `cause` for debugging, unless some text of it
 * holds a secret (no undici error does today; this guards future versions and
 * odd proxies): then a redacted stand-in, with the same name and code, takes its place.
 */
function redactedCause(error: unknown, redactor: SecretRedactor): unknown {
  if (!(error instanceof Error)) return error;
  const texts = [error.message, error.stack ?? '', safeJson(error)];
  if (!texts.some((t) => redactor.reveals(t))) return error;
  const standIn: Error & { code?: string } = new Error(redactor.redact(error.message));
  standIn.name = error.name;
  standIn.stack = redactor.redact(error.stack ?? '');
  const code = errorCode(error);
  if (code !== undefined) standIn.code = code;
  return standIn;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
