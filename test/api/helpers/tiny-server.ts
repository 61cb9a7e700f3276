import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
}

export type TinyHandler = (req: IncomingMessage, res: ServerResponse, index: number) => void | Promise<void>;

export interface TinyServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Number of TCP connections accepted (to see keep-alive reuse). */
  readonly connections: () => number;
  /** Resolves once the server has received `count` requests (at once if it already has). */
  untilRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A minimal HTTP server on 127.0.0.1 for transport-level tests (429, timeouts,
 * malformed bodies): it records what it received and answers with `handler`.
 */
export async function startTinyServer(handler: TinyHandler): Promise<TinyServer> {
  const requests: RecordedRequest[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const index = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    for (const waiter of waiters.filter((w) => requests.length >= w.count)) waiter.resolve();
    waiters = waiters.filter((w) => requests.length < w.count);
    Promise.resolve()
      .then(() => handler(req, res, index))
      .catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    untilRequests: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON body with optional extra headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The six authenticated rate-limit headers. */
export function rateHeaders(values: {
  dayLimit?: number;
  dayRemaining?: number;
  dayReset?: number;
  minuteLimit?: number;
  minuteRemaining?: number;
  minuteReset?: number;
  prefix?: string;
}): Record<string, string> {
  const p = values.prefix ?? 'X-RateLimit-';
  return {
    [`${p}Day-Limit`]: String(values.dayLimit ?? 10_000),
    [`${p}Day-Remaining`]: String(values.dayRemaining ?? 9_999),
    [`${p}Day-Reset`]: String(values.dayReset ?? 1_767_312_000),
    [`${p}Minute-Limit`]: String(values.minuteLimit ?? 120),
    [`${p}Minute-Remaining`]: String(values.minuteRemaining ?? 119),
    [`${p}Minute-Reset`]: String(values.minuteReset ?? 1_767_225_660),
  };
}
