import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ForbiddenError,
  RateLimitError,
  ResponseValidationError,
  UnauthorizedError,
} from '../api/index.js';

/**
 * What may be said in a channel about a failed API call: a category, never the
 * error's own text. That text is for the operator's log: it names hosts, ports,
 * paths and the server's descriptions, which a public /funding footer, /status
 * or the digest must not show.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiTimeoutError) return 'the platform did not answer in time';
  if (error instanceof ApiNetworkError) return 'the platform could not be reached';
  if (error instanceof RateLimitError) return 'the platform asked fundbot to slow down';
  if (error instanceof ResponseValidationError)
    return 'the platform sent a response fundbot does not understand';
  if (error instanceof UnauthorizedError) return 'the platform refused the API key';
  if (error instanceof ForbiddenError) return 'the API key may not read this';
  if (error instanceof ApiError) return `the platform answered with an error (HTTP ${error.status})`;
  return 'an internal error (see the logs)';
}
