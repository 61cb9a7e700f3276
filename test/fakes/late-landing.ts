/**
 * Faults where the platform DID take a post but the client cannot tell, the message landing when the platform
 * gets to it rather than when the request arrived: the answer comes late (`late`: `answerAfterMs`, a client with
 * a shorter timeout never sees it) and the message lands `landAfterMs` after the request (before or after the
 * answer), or the connection is reset once the request was read (`reset`), the message landing `landAfterMs`
 * later. One vocabulary for both fakes (Slack's chat.postMessage, Discord's Create Message): plain values, usable
 * by a fault-schedule generator as well as by hand.
 */

export interface LateAnswer {
  readonly late: { readonly answerAfterMs: number; readonly landAfterMs: number };
}

export interface ResetAfterRead {
  readonly reset: { readonly landAfterMs: number };
}

export type LateLanding = LateAnswer | ResetAfterRead;

/** The answer comes `answerAfterMs` after the request; the message lands `landAfterMs` after it. */
export function lateAnswer(answerAfterMs: number, landAfterMs = answerAfterMs): LateAnswer {
  return { late: { answerAfterMs, landAfterMs } };
}

/** The connection is reset once the request was read; the message lands `landAfterMs` later. */
export function resetAfterRead(landAfterMs = 0): ResetAfterRead {
  return { reset: { landAfterMs } };
}

export function isLateLanding(fault: object): fault is LateLanding {
  return 'late' in fault || 'reset' in fault;
}

/** How long after the request the fault's message lands. */
export function landsAfterMs(fault: LateLanding): number {
  return 'late' in fault ? fault.late.landAfterMs : fault.reset.landAfterMs;
}
