/**
 * Faults where Slack DID take the post but the client cannot tell, with the message landing when Slack gets to
 * it rather than when the request arrived. Slack (like any HTTP service behind load balancers and queues) may go
 * on processing a request the client gave up on, and nothing bounds how late: the message's `ts` is when it
 * landed, not when it was sent.
 *
 * - {@link lateAnswer}: the answer comes `answerAfterMs` after the request (a client with a shorter timeout
 *   never sees it) and the message lands `landAfterMs` after it (before or after the answer).
 * - {@link resetAfterReceive}: the request was read, then the connection is reset (the client sees ECONNRESET or
 *   "socket hang up"); the message lands `landAfterMs` later (default at once).
 *
 * Both are plain values for `fake.fail('chat.postMessage', fault, times)`, usable by a fault-schedule generator as
 * well as by hand; `landsAt` says when the message of such a fault appears (for a harness's ground truth).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LateLanding as LateLandingFault, landsAfterMs } from '../late-landing.js';
import { sendJson } from './http-bodies.js';

/** On Slack the request was received, then the connection reset. */
export {
  isLateLanding as isLateLandingFault,
  type LateAnswer,
  type LateLanding as LateLandingFault,
  landsAfterMs,
  lateAnswer,
  type ResetAfterRead as ResetAfterReceive,
  resetAfterRead as resetAfterReceive,
} from '../late-landing.js';

export interface LateLandingDeps {
  /** Waits on the fake's clock (real time by default; a test's virtual clock when it drives time). */
  readonly sleep: (ms: number) => Promise<void>;
  /** Puts the message in the channel (as chat.postMessage would) and returns what the answer carries. */
  readonly land: () => Record<string, unknown>;
  readonly record: (outcome: string) => void;
}

/** Plays a late-landing fault on one request: the landing and the answer (or reset) each at their time. */
export function playLateLanding(
  fault: LateLandingFault,
  req: IncomingMessage,
  res: ServerResponse,
  deps: LateLandingDeps,
): void {
  const landAfter = landsAfterMs(fault);
  const landing = landAfter <= 0 ? Promise.resolve(deps.land()) : deps.sleep(landAfter).then(deps.land);
  if ('reset' in fault) {
    deps.record(`reset after receive, lands after ${landAfter} ms`);
    req.socket.destroy();
    return;
  }
  deps.record(`answer after ${fault.late.answerAfterMs} ms, lands after ${landAfter} ms`);
  // Slack answers only once it processed the post: never before the message landed.
  void Promise.all([landing, deps.sleep(fault.late.answerAfterMs)]).then(([answer]) => {
    // The client gave up meanwhile: nobody reads the answer.
    if (req.socket.destroyed || res.writableEnded) return;
    sendJson(res, 200, { ok: true, ...answer });
  });
}
