import type { NeutralMessage } from '../domain/neutral-message.js';

/** A delivery in doubt: its idempotency key, when its attempt began, and what it carried. */
export interface Doubt {
  readonly key: string;
  readonly startedAt: number;
  /**
   * The latest it can have landed, when known: the platform answered (a 5xx) at a known
   * time, so nothing lands after it. Unknown (no answer, or a restart): the attempt's
   * start plus the poster's settle time.
   */
  readonly landsBy?: number;
  /**
   * When the first attempt that may have landed began, when earlier than `startedAt` (a repeat of a repeat):
   * the platform's dedupe window runs from that landing, not from the latest attempt.
   */
  readonly firstStartedAt?: number;
  readonly message: NeutralMessage;
  /** Other renderings its attempts carried (a repeat says it is late): a look matches any of them. */
  readonly alsoAs?: readonly NeutralMessage[];
  /** The platform's mark of the key, when its events name deliveries by it (Discord's nonce). */
  readonly mark?: string;
}

/** What decided a doubt (for the log): a sighting, the witness's silence, a look, a repeat the platform dedupes. */
export type DecidedBy = 'sighting' | 'silence' | 'look' | 'repeat';

export type DoubtDecision =
  /**
   * It landed: the message id is recorded, nothing is posted again; `others`: more copies of it the platform
   * showed (landed late beside an earlier repeat), to remove.
   */
  | {
      readonly kind: 'posted';
      readonly messageId: string | undefined;
      readonly others?: readonly string[];
      readonly by?: DecidedBy;
    }
  /** Certainly not there, or a repeat cannot duplicate it: post it (again). */
  | { readonly kind: 'absent'; readonly by?: DecidedBy }
  /** Cannot tell yet (it may still land, or no look is allowed before `until`). */
  | { readonly kind: 'wait'; readonly until: number };

/** Records a decision (when there is one) for its doubt; whether there was. */
export function decideInto(
  decisions: Map<string, DoubtDecision>,
  doubt: Doubt,
  decision: DoubtDecision | undefined,
): boolean {
  if (!decision) return false;
  decisions.set(doubt.key, decision);
  return true;
}
