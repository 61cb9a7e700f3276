/**
 * The request log entry of one request. Separate from the pipeline because the
 * entry is filled in as the request goes (credential kind, faults applied) and
 * must be written exactly once, whether the reply is sent or the client hangs up first.
 */
import type { HandlerState } from './handler-state.js';
import type { RequestLogEntry } from './types.js';

/** The log entry of a request still being handled. The key itself is never recorded. */
export interface RequestLogRecorder {
  /** Kind of credential the request presented; 'none' until one is read. */
  credential: RequestLogEntry['credential'];
  /** Faults that shaped the response, comma-separated in the order they applied. */
  fault: string | undefined;
  /** Appends a fault applied to the response. */
  addFault(name: string): void;
  /** Logs the entry with this status; later calls do nothing, so a reply and the `close` after it log once. */
  finish(status: number): void;
}

/** Starts the log entry of a request that arrived at `at` (epoch ms on the simulator clock). */
export function startRequestLog(
  state: Pick<HandlerState, 'log'>,
  request: { readonly at: number; readonly method: string; readonly url: URL },
): RequestLogRecorder {
  let logged = false;
  const recorder: RequestLogRecorder = {
    credential: 'none',
    fault: undefined,
    addFault(name) {
      recorder.fault = recorder.fault === undefined ? name : `${recorder.fault},${name}`;
    },
    finish(status) {
      if (logged) return;
      logged = true;
      const entry: RequestLogEntry = {
        at: request.at,
        method: request.method,
        path: request.url.pathname,
        query: Object.fromEntries(request.url.searchParams),
        status,
        credential: recorder.credential,
        ...(recorder.fault === undefined ? {} : { fault: recorder.fault }),
      };
      state.log(entry);
    },
  };
  return recorder;
}
