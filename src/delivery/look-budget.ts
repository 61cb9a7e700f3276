import { z } from 'zod';
import type { Clock } from '../lib/clock.js';
import type { Claims } from '../lib/coordination/claims.js';
import type { KeyValueStore } from '../lib/store.js';
import { DeliveryNotPostedError } from './delivery-not-posted-error.js';
import type { LookBudget } from './ports.js';

/** Looks are spaced this much beyond the platform's interval: its clock counts the arrival, ours the departure. */
const lookSpacingMarginMs = 1_000;

/**
 * A budget not spent by its last look whose claim was not ours is another process's: it is looking now (its answer
 * then times the budget) or it died mid-look, and its claim lapses at most an interval after it was taken (seed 120:
 * 61 s after the look was due, a doubt past its bound). The claim does not say when it was taken, so whoever wanted
 * the look (a doubt, a watch for copies) asks again this often, not an interval from now.
 */
export const claimRetryMs = 5_000;

/**
 * A look budget's use across the fleet (Slack: one conversations.history call a minute per workspace): when
 * its scope was last looked at (`delivery/look-budget/<scope>`, by any replica or an earlier process), and the
 * claim (`look:<scope>`, held for the interval) that lets one caller look meanwhile. A process that dies
 * mid-look and restarts may look once too early: the platform's 429 then says how long to wait, and that is
 * what the budget then says.
 */
export function createLookBudgets(options: {
  readonly store: KeyValueStore;
  readonly claims: Claims;
  readonly clock: Clock;
}) {
  const { store, claims, clock } = options;
  const budgetKey = (budget: LookBudget) => `delivery/look-budget/${encodeURIComponent(budget.scope)}`;
  const claimKey = (budget: LookBudget) => `look:${budget.scope}`;
  const intervalOf = (budget: LookBudget) => budget.intervalMs + lookSpacingMarginMs;

  return {
    intervalOf,
    /** When the scope was last looked at (epoch ms), if within memory of the store. */
    lastLook: (budget: LookBudget) => store.get(budgetKey(budget), z.number()),

    /**
     * Runs `look` when the budget allows and the claim is ours: its result, and when the scope was looked at
     * (timed from the answer: the platform counts from when the call reached it). Undefined when spent.
     * A refusal (429) gives the claim back and records the platform's wait.
     */
    async spend<T>(
      budget: LookBudget,
      lastLook: number | undefined,
      look: () => Promise<T>,
    ): Promise<{ readonly result: T; readonly lookedAt: number } | undefined> {
      const now = clock.now();
      const interval = intervalOf(budget);
      if (lastLook !== undefined && now < lastLook + interval) return undefined;
      if (!(await claims.claimOnce(claimKey(budget), interval))) return undefined;
      let result: T;
      try {
        result = await look();
      } catch (error) {
        const retryAfterMs = error instanceof DeliveryNotPostedError ? error.retryAfterMs : undefined;
        if (retryAfterMs !== undefined) {
          await claims.giveBack(claimKey(budget)).catch(() => {});
          await store.set(budgetKey(budget), now + retryAfterMs - interval, interval * 2).catch(() => {});
        }
        throw error;
      }
      const lookedAt = clock.now();
      await store.set(budgetKey(budget), lookedAt, interval * 2);
      return { result, lookedAt };
    },
  };
}

export type LookBudgets = ReturnType<typeof createLookBudgets>;
