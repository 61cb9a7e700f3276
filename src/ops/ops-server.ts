import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { HealthReport } from './health.js';
import type { Logger } from './logger.js';

export interface OpsServerOptions {
  /** Interface to bind; 127.0.0.1 keeps it private (Docker's HEALTHCHECK runs inside the container). */
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  readonly registry: Registry;
  /** Called on every `/healthz`; a throw or rejection counts as unhealthy. */
  readonly health: () => HealthReport | Promise<HealthReport>;
  readonly logger: Logger;
}

export interface OpsServer {
  /** e.g. `http://127.0.0.1:9464` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The operations endpoint: `GET /healthz` (200 `{ status: 'ok', checks }` or 503
 * `{ status: 'unhealthy', checks }`) and `GET /metrics` (Prometheus text format of
 * `registry`). Other paths answer 404, other methods 405. Plain node:http: two
 * routes do not justify a framework, and nothing here parses a request body.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { registry, logger } = options;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error, path: req.url }, 'ops server request failed');
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.destroy();
    });
  });
  // A stuck scraper must not hold sockets open for ever.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/healthz' && path !== '/metrics') {
      send(res, 404, 'text/plain; charset=utf-8', 'not found: try /healthz or /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
      return;
    }
    if (path === '/metrics') {
      send(res, 200, registry.contentType, await registry.metrics(), req.method === 'HEAD');
      return;
    }
    let report: HealthReport;
    try {
      report = await options.health();
    } catch (error) {
      logger.warn({ err: error }, 'health check threw: reporting unhealthy');
      report = {
        healthy: false,
        checks: { health: { ok: false, detail: 'the health check itself failed' } },
      };
    }
    const body = `${JSON.stringify({ status: report.healthy ? 'ok' : 'unhealthy', checks: report.checks })}\n`;
    send(res, report.healthy ? 200 : 503, 'application/json; charset=utf-8', body, req.method === 'HEAD');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  logger.info({ url }, 'ops server listening (/healthz, /metrics)');

  return {
    url,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections of a scraper would otherwise delay close() until they time out.
        server.closeAllConnections();
      }),
  };
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headOnly = false,
): void {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(headOnly ? undefined : body);
}
