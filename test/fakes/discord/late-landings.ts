/**
 * Create Message faults where Discord DID take the request but the client cannot tell, the message created when
 * Discord gets to it: the answer comes late (`late`: `answerAfterMs`, a client with a shorter REST timeout never
 * sees it) and the message is created `landAfterMs` after the request, or the connection is reset once the
 * request was read (`reset`). Nonce dedupe (`enforce_nonce`) is checked when the message is created, as on
 * Discord: a repeat that came first makes the late original return the repeat's message instead of a second one,
 * while the fake's nonce window (short on Discord, and undocumented) lasts.
 *
 * Plain values for `fake.faultMessages(fault, times)`, usable by a fault-schedule generator as well as by hand.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LateLanding as LateLandingMessageFault, landsAfterMs } from '../late-landing.js';
import { send } from './json-replies.js';

/** On Discord the late landing is the message's creation. */
export {
  isLateLanding as isLateLandingMessageFault,
  type LateAnswer as LateCreate,
  type LateLanding as LateLandingMessageFault,
  lateAnswer as lateCreate,
  type ResetAfterRead as ResetAfterCreate,
  resetAfterRead as resetAfterCreate,
} from '../late-landing.js';

/**
 * Plays the fault on one Create Message request: `create` (nonce check included) runs at the landing time,
 * the answer (or the reset) at its own.
 */
export function playLateCreate(
  fault: LateLandingMessageFault,
  req: IncomingMessage,
  res: ServerResponse,
  deps: {
    readonly sleep: (ms: number) => Promise<void>;
    readonly create: () => Record<string, unknown>;
  },
): void {
  const landAfterMs = landsAfterMs(fault);
  const created =
    landAfterMs <= 0 ? Promise.resolve(deps.create()) : deps.sleep(landAfterMs).then(deps.create);
  if ('reset' in fault) {
    req.socket.destroy();
    return;
  }
  void Promise.all([created, deps.sleep(fault.late.answerAfterMs)]).then(([message]) => {
    // The client gave up meanwhile: nobody reads the answer.
    if (req.socket.destroyed || res.writableEnded) return;
    send(res, 200, message);
  });
}
