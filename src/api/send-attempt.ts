import type { Dispatcher } from 'undici';
import type { RawResponse, TransportRequest } from './transport-types.js';

/** Marks an abort caused by our own timeout, to tell it from the caller's abort. */
class TimeoutSignal extends Error {
  override readonly name = 'TimeoutSignal';
}

/** Where and how one attempt is sent. */
export interface AttemptTarget {
  readonly dispatcher: Dispatcher;
  readonly origin: string;
  /** Path prefix of the base URL, without a trailing slash (`''` or `/api/v1`). */
  readonly basePath: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
}

/**
 * Sends one attempt of a request (one API request) and reads the whole body,
 * within `timeoutMs` of real time for headers and body together. Throws what
 * undici throws, the caller's abort reason, or a timeout that {@link isTimeout} recognises.
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
    const response = await target.dispatcher.request({
      origin: target.origin,
      path: target.basePath + request.path + queryString(request.query),
      method: request.endpoint.method,
      headers,
      signal: controller.signal,
    });
    const text = await readText(response.body, maxResponseBytes, controller.signal);
    return { status: response.statusCode, headers: response.headers, text };
  } finally {
    clearTimeout(timer);
    for (const { signal, onAbort } of links) signal.removeEventListener('abort', onAbort);
  }
}

/** Whether a failure of {@link sendAttempt} is a timeout (ours, or one of undici's own). */
export function isTimeout(error: unknown): boolean {
  if (error instanceof TimeoutSignal) return true;
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return true;
  }
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

async function readText(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  signal: AbortSignal,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      throw new Error(`response body larger than ${maxBytes} bytes`);
    }
    chunks.push(buffer);
    if (signal.aborted) throw signal.reason;
  }
  return Buffer.concat(chunks).toString('utf8');
}
