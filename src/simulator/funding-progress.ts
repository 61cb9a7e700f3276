/**
 * Which funding milestones (every 25% of the goal) and whether the goal itself have
 * been announced in the history. Separate from the ledger because these are sticky:
 * a failed support lowers the funding, but a milestone is never announced twice.
 */
import type { SimHistoryEntry } from './types.js';
import { cents, fromCents } from './wire-units.js';

const milestoneStep = 25;

export class FundingProgress {
  #goalReached = false;
  #milestone = 0;
  readonly #history: SimHistoryEntry[];

  constructor(history: SimHistoryEntry[]) {
    this.#history = history;
  }

  /** Records the milestones and the goal the funding has crossed for the first time. */
  update(fundingCents: number, fundingThreshold: number, at: number): void {
    const goalCents = cents(fundingThreshold);
    const fundingTotal = fromCents(fundingCents);
    if (goalCents > 0) {
      const percent = Math.floor((fundingCents * 100) / goalCents / milestoneStep) * milestoneStep;
      for (let p = this.#milestone + milestoneStep; p <= percent; p += milestoneStep) {
        this.#history.push({ type: 'milestone', at, percent: p, fundingTotal });
      }
      this.#milestone = Math.max(this.#milestone, percent);
    }
    if (!this.#goalReached && fundingCents >= goalCents) {
      this.#goalReached = true;
      this.#history.push({ type: 'goal-reached', at, fundingTotal });
    }
  }
}
