import { type RateBudget, windowAtReserve } from '../../api/index.js';

/** Why a request was not sent: the scheduler retries at `until`. */
export class DeferredError extends Error {
  override readonly name = 'DeferredError';
  constructor(
    readonly until: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Pro-plan defaults, used until the first response reports the real figures. */
export const assumedBudget = (now: number): Omit<RateBudget, 'observedAt' | 'public'> => {
  const nextMidnight = Math.floor(now / 86_400_000 + 1) * 86_400_000;
  return {
    dayLimit: 10_000,
    dayRemaining: 10_000,
    dayResetAt: nextMidnight,
    minuteLimit: 120,
    minuteRemaining: 120,
    minuteResetAt: now + 60_000,
  };
};

/**
 * Per credential: obeys Retry-After (no request at all until it has passed; the
 * API transport owns the pause, the gate only reads it), keeps the minute reserve
 * free for slash commands, and stops polling once the day budget is down to its
 * reserve. The API client tracks the figures from the headers; the gate adds the
 * requests sent since, so several requests of one poll cannot overrun a window
 * between two responses.
 */
export class CredentialGate {
  #sentSinceBudget = 0;
  #budgetSeenAt = -1;

  /** @param reserveShare share (0..1) of the minute and day limits kept for commands. */
  constructor(private readonly reserveShare: number) {}

  /**
   * Throws {@link DeferredError} when a request must not be sent now. Polls keep
   * the reserve (of the minute and of the day) untouched; commands may use it.
   * `pausedUntil` is the transport's Retry-After pause for this credential (0 = none).
   */
  check(now: number, budget: RateBudget | undefined, purpose: 'poll' | 'command', pausedUntil = 0): void {
    if (now < pausedUntil) {
      throw new DeferredError(
        pausedUntil,
        `rate limited: the API asked to wait ${Math.ceil((pausedUntil - now) / 1000)} s`,
      );
    }
    if (budget === undefined) return;
    if (budget.observedAt !== this.#budgetSeenAt) {
      this.#budgetSeenAt = budget.observedAt;
      this.#sentSinceBudget = 0;
    }
    // Commands may use the reserve: for them only an empty window stops.
    const share = purpose === 'poll' ? this.reserveShare : 0;
    const window = windowAtReserve(budget, share, now, this.#sentSinceBudget);
    if (window === 'minute') {
      throw new DeferredError(budget.minuteResetAt, 'minute budget down to its reserve');
    }
    if (window === 'day') {
      throw new DeferredError(budget.dayResetAt, 'day budget down to the reserve kept for commands');
    }
  }

  /** Counts a request about to be sent. */
  sent(): void {
    this.#sentSinceBudget += 1;
  }
}
