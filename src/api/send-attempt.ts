import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
 */
export async function sendAttempt(
  target: AttemptTarget,
  request: TransportRequest<unknown>,
  secret: string | undefined,
  cancel?: AbortSignal,
): Promise<RawResponse> {
  const { timeoutMs, maxResponseBytes, userAgent } = target;
  const controller = new AbortController();
  // Real time on purpose: a network timeout is about the socket, and a virtual clock that
  // auto-advances (the benchmark) would otherwise fire every timeout at once.
  const timer = setTimeout(
    () => controller.abort(new TimeoutSignal(`timeout after ${timeoutMs} ms`)),
    timeoutMs,
  );
  // Listeners added and removed per attempt, not AbortSignal.any: a long-lived caller signal
  // would otherwise keep one dependent signal per request until it is collected.
  const links = [request.signal, cancel].flatMap((signal) => {
    if (signal === undefined) return [];
    const onAbort = () => controller.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return [{ signal, onAbort }];
  });
  try {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
    if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
    const response = await exchange(target, {
      path: target.basePath + request.path + queryString(request.query),
      method: request.endpoint.method,
      headers,
      signal: controller.signal,
    });
    const text = await readText(response, maxResponseBytes, controller.signal);
    return { status: response.statusCode ?? 0, headers: response.headers, text };
  } catch (error) {
    // An abort surfaces from node:http as its own AbortError (or a reset socket): report the reason instead.
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    for (const { signal, onAbort } of links) signal.removeEventListener('abort', onAbort);
  }
}

/** Sends the request without a body and resolves with the response head; the body is still to be read. */
function exchange(
  target: AttemptTarget,
  options: { path: string; method: string; headers: Record<string, string>; signal: AbortSignal },
): Promise<IncomingMessage> {
  const { origin } = target;
  const send = origin.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: origin.protocol,
        // `[::1]` in a URL is `::1` on the socket.
        hostname: origin.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: origin.port,
        agent: target.agent,
        ...options,
      },
      resolve,
    );
    req.once('error', reject);
    req.end();
  });
}

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

/**
 * The whole body as text, refused past `maxBytes`. Listeners, not `for await`: an async iterator per
 * response (and its end-of-stream watch) cost about a tenth of this client's own CPU per request at the
 * first polls of 1,000 projects.
 */
function readText(body: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const fail = (error: unknown) => {
      stop();
      // Keeps a late error of the destroyed stream from being an unhandled 'error' event.
      body.on('error', () => {});
      body.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return fail(new Error(`response body larger than ${maxBytes} bytes`));
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (error: Error) => fail(error);
    const onClose = () => fail(new Error('the connection closed before the whole response body arrived'));
    const onAbort = () => fail(signal.reason);
    if (signal.aborted) return onAbort();
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('error', onError);
    body.once('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
