import type { RateLimit, RateLimits } from './types.js';

/** The spec's default limits (Limits section). */
export const defaultRateLimits: RateLimits = {
  pro: { perMinute: 120, perDay: 10_000 },
  premium: { perMinute: 300, perDay: 50_000 },
  enterprise: { perMinute: 600, perDay: 100_000 },
  user: { perMinute: 60, perDay: 5_000 },
  public: { perMinute: 30, perDay: 1_000 },
};

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: RateLimit;
  readonly minuteRemaining: number;
  readonly dayRemaining: number;
  /** Unix seconds when the windows reset. */
  readonly minuteReset: number;
  readonly dayReset: number;
  /** Set when refused: the exceeded window and the wait in whole seconds (at least 1). */
  readonly exceeded?: { readonly window: 'minute' | 'day'; readonly retryAfterSeconds: number };
}

interface Bucket {
  minuteWindow: number;
  minuteCount: number;
  dayWindow: number;
  dayCount: number;
}

const minuteMs = 60_000;
const dayMs = 86_400_000;

/**
 * Fixed windows aligned to the injected clock: the minute window is the clock's
 * current UTC minute, the day window its UTC day. Fixed windows make the reset
 * times exact and easy to test with a ManualClock. Refused requests do not count.
 */
export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  /**
   * `dayStartOffsetMs`: the day windows start this long before each UTC midnight (default 0). A bench
   * whose bot runs on the real clock starts the platform's day just before the run, so every key's plan is
   * the whole day's pace whenever it runs (bench/scale-sim-child.ts). Rounded to a whole second: the
   * `Day-Reset` header is a UNIX timestamp in whole seconds (api-spec Limits), and a client that reads
   * "1764547210.123" as no budget at all falls back to its assumptions (a bench run from the real clock's
   * offset did: every key planned to the real UTC midnight, its pace set by the hour the bench ran).
   */
  readonly dayStartOffsetMs: number;

  constructor(dayStartOffsetMs = 0) {
    this.dayStartOffsetMs = Math.round(dayStartOffsetMs / 1000) * 1000;
  }

  take(bucketId: string, limit: RateLimit, now: number): RateDecision {
    const minuteWindow = Math.floor(now / minuteMs);
    const dayWindow = Math.floor((now + this.dayStartOffsetMs) / dayMs);
    let bucket = this.#buckets.get(bucketId);
    if (bucket === undefined) {
      bucket = { minuteWindow, minuteCount: 0, dayWindow, dayCount: 0 };
      this.#buckets.set(bucketId, bucket);
    }
    if (bucket.minuteWindow !== minuteWindow) {
      bucket.minuteWindow = minuteWindow;
      bucket.minuteCount = 0;
    }
    if (bucket.dayWindow !== dayWindow) {
      bucket.dayWindow = dayWindow;
      bucket.dayCount = 0;
    }
    const minuteResetMs = (minuteWindow + 1) * minuteMs;
    const dayResetMs = (dayWindow + 1) * dayMs - this.dayStartOffsetMs;
    const base = { limit, minuteReset: minuteResetMs / 1000, dayReset: dayResetMs / 1000 };
    const wait = (resetMs: number) => Math.max(1, Math.ceil((resetMs - now) / 1000));
    if (bucket.dayCount >= limit.perDay) {
      return {
        ...base,
        allowed: false,
        minuteRemaining: Math.max(0, limit.perMinute - bucket.minuteCount),
        dayRemaining: 0,
        exceeded: { window: 'day', retryAfterSeconds: wait(dayResetMs) },
      };
    }
    if (bucket.minuteCount >= limit.perMinute) {
      return {
        ...base,
        allowed: false,
        minuteRemaining: 0,
        dayRemaining: Math.max(0, limit.perDay - bucket.dayCount),
        exceeded: { window: 'minute', retryAfterSeconds: wait(minuteResetMs) },
      };
    }
    bucket.minuteCount++;
    bucket.dayCount++;
    return {
      ...base,
      allowed: true,
      minuteRemaining: limit.perMinute - bucket.minuteCount,
      dayRemaining: limit.perDay - bucket.dayCount,
    };
  }

  /** Forgets all counts (e.g. between test phases). */
  reset(): void {
    this.#buckets.clear();
  }
}
