import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ForbiddenError,
  RateLimitError,
  ResponseValidationError,
  UnauthorizedError,
} from '../../api/index.js';
import type { FailureKind } from '../../domain/engine-notes.js';

/**
 * What may be said in a channel about a failed API call: a category (the one code
 * table, domain/engine-notes.ts), never the error's own text. That text is for the
 * operator's log: it names hosts, ports, paths and the server's descriptions, which a
 * public /funding footer, /status or the digest must not show.
 */
export function classifyFailure(error: unknown): { readonly failure: FailureKind; readonly status?: number } {
  if (error instanceof ApiTimeoutError) return { failure: 'timeout' };
  if (error instanceof ApiNetworkError) return { failure: 'unreachable' };
  if (error instanceof RateLimitError) return { failure: 'rate-limited' };
  if (error instanceof ResponseValidationError) return { failure: 'bad-response' };
  if (error instanceof UnauthorizedError) return { failure: 'key-refused' };
  if (error instanceof ForbiddenError) return { failure: 'forbidden' };
  if (error instanceof ApiError) return { failure: 'http-error', status: error.status };
  return { failure: 'internal' };
}
