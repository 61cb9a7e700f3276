import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AttemptCancel } from './attempt-cancel.js';
import type { RawResponse, TransportRequest } from './transport-types.js';

/** Marks an abort caused by our own timeout, to tell it from the caller's abort. */
class TimeoutSignal extends Error {
  override readonly name = 'TimeoutSignal';
}

/** Where and how one attempt is sent. */
export interface AttemptTarget {
  /** The client's own keep-alive pool (node:http's Agent; an https base gets an https Agent). */
  readonly agent: HttpAgent;
  /** The base URL's scheme, host and port. */
  readonly origin: URL;
  /** The origin's host as the socket takes it (`[::1]` in a URL is `::1` on the socket). */
  readonly hostname: string;
  /** Path prefix of the base URL, without a trailing slash (`''` or `/api/v1`). */
  readonly basePath: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
}

/**
 * The client's own connection pool: keep-alive connections per origin, reused by every
 * request of this client, at most `connections` open at once. node:http's Agent, not
 * undici's: loading undici installs undici as the process-wide dispatcher (the one
 * `fetch` and every other undici copy then use), and fundbot must not change the HTTP
 * stack of the libraries beside it (@discordjs/rest sent files through it and failed).
 */
export function createAgent(origin: URL, connections: number): HttpAgent {
  const options = { keepAlive: true, maxSockets: connections, maxFreeSockets: connections, timeout: 30_000 };
  return origin.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * Sends one attempt of a request (one API request) and reads the whole body,
 * within `timeoutMs` of real time for headers and body together. Throws what
 * node:http throws, the caller's abort reason, or a timeout that {@link isTimeout} recognises.
 * `cancel` stops this attempt alone (the other copy of a hedged read answered first).
 *
 * One settle-once exchange that destroys its request and response itself when the timeout, the caller's signal
 * or `cancel` stops it: no AbortController of its own, no signal handed to node:http (which adds its own listener
 * per request), no listener on the caller's signal unless there is one. Those were about 4 % of a replica's
 * CPU to its first polls (bench scaleRedis profile).
 */
export function sendAttempt(
  target: AttemptTarget,
  request: TransportRequest<unknown>,
  secret: string | undefined,
  cancel?: AttemptCancel,
): Promise<RawResponse> {
  const { timeoutMs, maxResponseBytes, userAgent } = target;
  const callerSignal = request.signal;
  return new Promise<RawResponse>((resolve, reject) => {
    let req: ClientRequest | undefined;
    let body: IncomingMessage | undefined;
    let done = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      done = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
      cancel?.watch(undefined);
      if (body !== undefined) {
        body.off('data', onData);
        body.off('end', onEnd);
        body.off('error', fail);
        body.off('close', onClose);
      }
    };
    // Stops the exchange with `error`: the first of a timeout, an abort or a failure is what the caller sees
    // (an abort surfaces from node:http as its own error or a reset socket: the reason is reported instead).
    function fail(error: unknown): void {
      if (done) return;
      settle();
      // Keeps a late error of the destroyed request or stream from being an unhandled 'error' event.
      if (body !== undefined) {
        body.on('error', ignore);
        body.destroy();
      }
      if (req !== undefined) {
        req.on('error', ignore);
        req.destroy();
      }
      reject(error);
    }
    const onCallerAbort = () => fail(callerSignal?.reason);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxResponseBytes)
        return fail(new Error(`response body larger than ${maxResponseBytes} bytes`));
      chunks.push(chunk);
    };
    const onEnd = () => {
      if (done || body === undefined) return;
      settle();
      resolve({
        status: body.statusCode ?? 0,
        headers: body.headers,
        text: Buffer.concat(chunks, size).toString('utf8'),
      });
    };
    const onClose = () => fail(new Error('the connection closed before the whole response body arrived'));
    // Real time on purpose: a network timeout is about the socket, and a virtual clock that
    // auto-advances (the benchmark) would otherwise fire every timeout at once.
    const timer = setTimeout(() => fail(new TimeoutSignal(`timeout after ${timeoutMs} ms`)), timeoutMs);
    if (callerSignal?.aborted) return fail(callerSignal.reason);
    if (cancel?.cancelled) return fail(cancel.reason);
    // Added and removed per attempt, not AbortSignal.any: a long-lived caller signal would otherwise keep one
    // dependent signal per request until it is collected.
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    cancel?.watch(fail);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
    const send = target.origin.protocol === 'https:' ? httpsRequest : httpRequest;
    req = send(
      {
        protocol: target.origin.protocol,
        hostname: target.hostname,
        port: target.origin.port,
        agent: target.agent,
        path: target.basePath + request.path + queryString(request.query),
        method: request.endpoint.method,
        headers,
      },
      (response) => {
        if (done) {
          response.on('error', ignore);
          response.destroy();
          return;
        }
        body = response;
        response.on('data', onData);
        response.once('end', onEnd);
        response.once('error', fail);
        response.once('close', onClose);
      },
    );
    // Before the answer's head the request's error is the attempt's; after it, the body's own events say it.
    req.once('error', (error) => {
      if (body === undefined) fail(error);
    });
    req.end();
  });
}

function ignore(): void {}

/** Whether a failure of {@link sendAttempt} is a timeout (ours, or one of the socket's own). */
export function isTimeout(error: unknown): boolean {
  if (error instanceof TimeoutSignal) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return true;
  return 'cause' in error && error.cause instanceof TimeoutSignal;
}

function queryString(query: TransportRequest<unknown>['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
