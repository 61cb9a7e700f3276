/**
 * Rate limiting of one request: which limit applies to its credential, the
 * rate headers every reply carries and the 429 reply. Separate from the
 * limiter's bookkeeping (rate-limiter.ts), which knows nothing of HTTP.
 */
import type { Credential } from './credential.js';
import type { HandlerState } from './handler-state.js';
import type { RateDecision } from './rate-limiter.js';
import { apiError, type Reply } from './replies.js';
import type { RateLimit } from './types.js';

function rateHeaders(decision: RateDecision, prefix: string): Record<string, string> {
  return {
    [`${prefix}Day-Limit`]: String(decision.limit.perDay),
    [`${prefix}Day-Remaining`]: String(decision.dayRemaining),
    [`${prefix}Day-Reset`]: String(decision.dayReset),
    [`${prefix}Minute-Limit`]: String(decision.limit.perMinute),
    [`${prefix}Minute-Remaining`]: String(decision.minuteRemaining),
    [`${prefix}Minute-Reset`]: String(decision.minuteReset),
  };
}

/**
 * Takes one request from the budget: per key, or per IP without a credential.
 * Returns the headers for the reply and, when a window is exhausted, the 429 reply.
 */
export function takeRateLimit(
  state: HandlerState,
  credential: Credential,
  remoteAddress: string | undefined,
): { readonly headers: Record<string, string>; readonly rejection?: Reply } {
  const limits = state.limits();
  let limit: RateLimit;
  if (credential.kind === 'project') {
    const plan = credential.plan;
    limit = plan === 'pro' || plan === 'premium' || plan === 'enterprise' ? limits[plan] : limits.public;
  } else limit = credential.kind === 'user' ? limits.user : limits.public;
  const bucket = credential.kind === 'none' ? `ip:${remoteAddress ?? 'unknown'}` : credential.id;
  const decision = state.limiter.take(bucket, limit, state.clock.now());
  const headers: Record<string, string> = rateHeaders(
    decision,
    credential.kind === 'none' ? 'X-RateLimit-Public-' : 'X-RateLimit-',
  );
  if (credential.kind !== 'none') headers['access-control-allow-origin'] = '*';
  if (decision.exceeded === undefined) return { headers };
  const { window, retryAfterSeconds } = decision.exceeded;
  headers['retry-after'] = String(retryAfterSeconds);
  return {
    headers,
    rejection: apiError(
      429,
      'rate_limit_exceeded',
      `Rate limit of the ${window} window exceeded: wait ${retryAfterSeconds} seconds before retrying.`,
    ),
  };
}
