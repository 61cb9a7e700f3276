import type { Claims } from '../../../lib/coordination/claims.js';
import { maxSignatureAgeMs } from './verify-signature.js';

/**
 * How long an interaction id is remembered: a signed request is accepted while its timestamp
 * is within {@link maxSignatureAgeMs} of the clock, either way, so a copy can arrive up to
 * twice that after the first one.
 */
export const interactionReplayWindowMs = 2 * maxSignatureAgeMs;

/**
 * Refuses an interaction that was already handled. Discord never sends one interaction twice
 * (it does not retry), so a second request with the same interaction id is a replay of a
 * captured request, re-signed or not: it is keyed on the id, not on the signature. One atomic
 * set-if-absent per interaction (`claimOnce`): on Redis `SET NX PX`, shared by every replica
 * behind the load balancer, so a replay sent to another replica is refused as well.
 */
export interface InteractionReplayGuard {
  /** True the first time `interactionId` is seen within the window, on any replica. */
  firstSeen(interactionId: string): Promise<boolean>;
}

export function createInteractionReplayGuard(claims: Claims): InteractionReplayGuard {
  return {
    firstSeen: (interactionId) =>
      claims.claimOnce(`discord/interaction/${interactionId}`, interactionReplayWindowMs),
  };
}
