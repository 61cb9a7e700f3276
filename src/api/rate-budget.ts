/**
 * The rate-limit budget the server reports in `X-RateLimit-*` headers (and
 * `X-RateLimit-Public-*` on unauthenticated responses). The values are
 * per-environment defaults, so the client reads them from every response
 * instead of hard-coding the table of the spec.
 */
export interface RateBudget {
  readonly dayLimit: number;
  readonly dayRemaining: number;
  /** Epoch ms (the header is a UNIX timestamp in seconds). */
  readonly dayResetAt: number;
  readonly minuteLimit: number;
  readonly minuteRemaining: number;
  /** Epoch ms. */
  readonly minuteResetAt: number;
  /** Clock ms when the response carrying these figures arrived. */
  readonly observedAt: number;
  /** True when the figures came from the `X-RateLimit-Public-*` (per IP) headers. */
  readonly public: boolean;
}

type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function integer(headers: HeaderBag, name: string): number | undefined {
  const raw = header(headers, name)?.trim();
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * A `*-Reset` header: a UNIX timestamp in seconds (api-spec Limits). A fraction ('1772485199.877') is read, not
 * refused: refusing it dropped the whole budget, and every key then ran on the assumed budget to the real UTC
 * midnight without a word (issue 33's bench found it).
 */
function timestamp(headers: HeaderBag, name: string): number | undefined {
  const raw = header(headers, name)?.trim();
  if (raw === undefined || !/^\d+(\.\d+)?$/.test(raw)) return undefined;
  return Number(raw);
}

function read(
  headers: HeaderBag,
  prefix: string,
  observedAt: number,
  isPublic: boolean,
): RateBudget | undefined {
  const dayLimit = integer(headers, `${prefix}Day-Limit`);
  const dayRemaining = integer(headers, `${prefix}Day-Remaining`);
  const dayReset = timestamp(headers, `${prefix}Day-Reset`);
  const minuteLimit = integer(headers, `${prefix}Minute-Limit`);
  const minuteRemaining = integer(headers, `${prefix}Minute-Remaining`);
  const minuteReset = timestamp(headers, `${prefix}Minute-Reset`);
  if (
    dayLimit === undefined ||
    dayRemaining === undefined ||
    dayReset === undefined ||
    minuteLimit === undefined ||
    minuteRemaining === undefined ||
    minuteReset === undefined
  ) {
    // A partial set is as good as none: half a budget would mislead a scheduler.
    return undefined;
  }
  return {
    dayLimit,
    dayRemaining,
    dayResetAt: Math.round(dayReset * 1000),
    minuteLimit,
    minuteRemaining,
    minuteResetAt: Math.round(minuteReset * 1000),
    observedAt,
    public: isPublic,
  };
}

/**
 * Reads the six rate-limit headers. Authenticated figures win when both sets are
 * present; the public set is used otherwise (unauthenticated requests, and keys
 * of Basic/Legacy projects that fall back to the no-credential limits).
 */
export function parseRateBudget(headers: HeaderBag, observedAt: number): RateBudget | undefined {
  return (
    read(headers, 'X-RateLimit-', observedAt, false) ?? read(headers, 'X-RateLimit-Public-', observedAt, true)
  );
}

/**
 * The window of `budget` (minute first, then day) that is down to `reserveShare` of its
 * limit while it lasts, counting `sentSince` requests its headers do not show yet;
 * undefined when neither is. The one "budget down to its reserve" rule: the engine's
 * credential gate keeps its reserve with it, and hedged reads their last tenth.
 */
export function windowAtReserve(
  budget: RateBudget,
  reserveShare: number,
  now: number,
  sentSince = 0,
): 'minute' | 'day' | undefined {
  const atReserve = (remaining: number, limit: number, resetAt: number) =>
    now < resetAt && remaining - sentSince <= Math.ceil(reserveShare * limit);
  if (atReserve(budget.minuteRemaining, budget.minuteLimit, budget.minuteResetAt)) return 'minute';
  if (atReserve(budget.dayRemaining, budget.dayLimit, budget.dayResetAt)) return 'day';
  return undefined;
}

/**
 * `Retry-After` in ms: delta-seconds as the spec says, or an HTTP date (RFC 9110)
 * for robustness. Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(headers: HeaderBag, nowMs: number): number | undefined {
  const raw = header(headers, 'Retry-After')?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw) * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
