import type { Random } from '../lib/random.js';

/**
 * Which requests a fault applies to. `path`: a string matches when the request
 * path CONTAINS it (e.g. '/wall'), a RegExp when it matches the path (no query).
 * `n`: how many matching requests it affects (default 1; `Infinity` until cleared).
 */
export interface FaultMatch {
  readonly path?: string | RegExp;
  readonly n?: number;
}

export type FaultKind =
  | 'server-error'
  | 'slow'
  | 'rate-limit-storm'
  | 'malformed-json'
  | 'schema-violation'
  | 'extra-fields'
  | 'unknown-error'
  | 'shift-between-pages';

/** Faults that strike a share of the requests at random (seeded), counted apart from the rules. */
type RandomFaultKind = 'random-5xx' | 'random-slow';

interface FaultRule {
  readonly kind: FaultKind;
  readonly path: string | RegExp | undefined;
  remaining: number;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Counters of applied faults, for assertions and the benchmark report. */
export interface FaultStats {
  readonly applied: Readonly<Record<FaultKind | RandomFaultKind, number>>;
}

/**
 * Live fault injection. Each call adds a rule that shapes the next `n` matching
 * requests; several rules can be active at once (the oldest matching rule of a
 * kind wins). Faults that replace the response (5xx, 429 storm, unknown error)
 * are decided before authentication and rate limiting and do not count against
 * the rate limit; the others shape a normally handled response.
 */
export interface FaultControls {
  /** Answers with a 5xx (default 500). `html: true` sends an HTML proxy page instead of JSON. */
  serverError(options?: FaultMatch & { status?: number; html?: boolean }): void;
  /**
   * Delays the response by `delayMs` of REAL time (setTimeout, not the injected
   * clock), so a client's real timeout can fire. The timer is cleared on close().
   */
  slow(options: FaultMatch & { delayMs: number }): void;
  /** 429 `rate_limit_exceeded` with `Retry-After` (default 1 second). */
  rateLimitStorm(options?: FaultMatch & { retryAfterSeconds?: number }): void;
  /** A 200 with a truncated, unparsable JSON body. */
  malformedJson(options?: FaultMatch): void;
  /**
   * A 200 whose body breaks the schema: `field` of the first item (or of the
   * project/user/data object) is set to `value`; by default the first numeric field
   * becomes a string.
   */
  schemaViolation(options?: FaultMatch & { field?: string; value?: unknown }): void;
  /** Adds unknown extra fields to the envelope and every item (must be harmless). Default n: Infinity. */
  extraFields(options?: FaultMatch): void;
  /** An error code the client has never seen (default `quantum_flux`, status 418). */
  unknownError(options?: FaultMatch & { code?: string; status?: number; description?: string | null }): void;
  /**
   * Between two page requests of the same list (any request with offset > 0 to
   * /fundings, /orders, /subscribers, /wall or /blog), first inserts `insert` new
   * entries (default 1) and removes `remove` of the newest existing entries
   * (default 0; fundings/orders only before payoff), so positions shift as the
   * spec warns. The changes are real: they appear in the project's snapshot.
   * Default n: Infinity.
   */
  shiftBetweenPages(options?: FaultMatch & { insert?: number; remove?: number }): void;
  /** Every request fails with a 5xx (default 503) with probability `rate`, from the seeded random. 0 turns it off. */
  injectRandom5xx(rate: number, options?: { status?: number; path?: string | RegExp }): void;
  /**
   * Every request is held `delayMs` of REAL time (as {@link FaultControls.slow}) with probability `rate`,
   * from the seeded random: the slow tail of a busy API. 0 turns it off.
   */
  injectRandomSlow(rate: number, delayMs: number, options?: { path?: string | RegExp }): void;
  /** Removes all rules and the random 5xx rate. */
  clear(): void;
  readonly stats: FaultStats;
}

export interface ActiveFault {
  readonly kind: FaultKind;
  readonly params: Readonly<Record<string, unknown>>;
}

function matches(path: string, filter: string | RegExp | undefined): boolean {
  if (filter === undefined) return true;
  return typeof filter === 'string' ? path.includes(filter) : filter.test(path);
}

/** The fault rules plus the queries the server makes. */
export class FaultInjector implements FaultControls {
  #rules: FaultRule[] = [];
  #random5xx: { rate: number; status: number; path: string | RegExp | undefined } | null = null;
  #randomSlow: { rate: number; delayMs: number; path: string | RegExp | undefined } | null = null;
  readonly #random: Random;
  readonly #applied: Record<FaultKind | RandomFaultKind, number> = {
    'server-error': 0,
    slow: 0,
    'rate-limit-storm': 0,
    'malformed-json': 0,
    'schema-violation': 0,
    'extra-fields': 0,
    'unknown-error': 0,
    'shift-between-pages': 0,
    'random-5xx': 0,
    'random-slow': 0,
  };

  constructor(random: Random) {
    this.#random = random;
  }

  get stats(): FaultStats {
    return { applied: { ...this.#applied } };
  }

  serverError(options: FaultMatch & { status?: number; html?: boolean } = {}): void {
    this.#add('server-error', options, 1, { status: options.status ?? 500, html: options.html ?? false });
  }
  slow(options: FaultMatch & { delayMs: number }): void {
    this.#add('slow', options, 1, { delayMs: options.delayMs });
  }
  rateLimitStorm(options: FaultMatch & { retryAfterSeconds?: number } = {}): void {
    this.#add('rate-limit-storm', options, 1, { retryAfterSeconds: options.retryAfterSeconds ?? 1 });
  }
  malformedJson(options: FaultMatch = {}): void {
    this.#add('malformed-json', options, 1, {});
  }
  schemaViolation(options: FaultMatch & { field?: string; value?: unknown } = {}): void {
    this.#add('schema-violation', options, 1, {
      field: options.field,
      value: options.value,
      hasValue: 'value' in options,
    });
  }
  extraFields(options: FaultMatch = {}): void {
    this.#add('extra-fields', options, Number.POSITIVE_INFINITY, {});
  }
  unknownError(
    options: FaultMatch & { code?: string; status?: number; description?: string | null } = {},
  ): void {
    this.#add('unknown-error', options, 1, {
      code: options.code ?? 'quantum_flux',
      status: options.status ?? 418,
      description:
        options.description === undefined ? 'The flux capacitor is out of alignment.' : options.description,
    });
  }
  shiftBetweenPages(options: FaultMatch & { insert?: number; remove?: number } = {}): void {
    this.#add('shift-between-pages', options, Number.POSITIVE_INFINITY, {
      insert: options.insert ?? 1,
      remove: options.remove ?? 0,
    });
  }
  injectRandom5xx(rate: number, options: { status?: number; path?: string | RegExp } = {}): void {
    this.#random5xx = rate > 0 ? { rate, status: options.status ?? 503, path: options.path } : null;
  }
  injectRandomSlow(rate: number, delayMs: number, options: { path?: string | RegExp } = {}): void {
    this.#randomSlow = rate > 0 ? { rate, delayMs, path: options.path } : null;
  }
  clear(): void {
    this.#rules = [];
    this.#random5xx = null;
    this.#randomSlow = null;
  }

  /** Whether any rule is pending (lets the server skip the response-fault work on the hot path). */
  get hasRules(): boolean {
    return this.#rules.length > 0;
  }

  /** Consumes one application of the oldest matching rule of this kind. */
  take(kind: FaultKind, path: string): ActiveFault | undefined {
    const rule = this.#rules.find((r) => r.kind === kind && matches(path, r.path));
    if (rule === undefined) return undefined;
    rule.remaining--;
    if (rule.remaining <= 0) this.#rules = this.#rules.filter((r) => r !== rule);
    this.#applied[kind]++;
    return { kind, params: rule.params };
  }

  /** The status of the random 5xx when it strikes this request; draws from the seeded random only while enabled. */
  takeRandom5xx(path: string): number | undefined {
    const config = this.#random5xx;
    return this.#strikes('random-5xx', config, path) ? config?.status : undefined;
  }

  /** The real-time delay the random slow fault gives this request, if it strikes; draws only while enabled. */
  takeRandomSlow(path: string): number | undefined {
    const config = this.#randomSlow;
    return this.#strikes('random-slow', config, path) ? config?.delayMs : undefined;
  }

  /** Whether a random fault strikes this request (and counts it); draws from the seeded random only while enabled. */
  #strikes(
    kind: RandomFaultKind,
    config: { readonly rate: number; readonly path: string | RegExp | undefined } | null,
    path: string,
  ): boolean {
    if (config === null || !matches(path, config.path)) return false;
    if (this.#random.next() >= config.rate) return false;
    this.#applied[kind]++;
    return true;
  }

  #add(kind: FaultKind, options: FaultMatch, defaultN: number, params: Record<string, unknown>): void {
    const n = options.n ?? defaultN;
    if (!(n > 0)) return;
    this.#rules.push({ kind, path: options.path, remaining: n, params });
  }
}
