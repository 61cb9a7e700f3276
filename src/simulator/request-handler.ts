/**
 * The request pipeline of the simulator's HTTP server: the order of the steps
 * and the dispatch to the endpoint that builds the reply. Each step (routes,
 * credential, rate limit, faults, request log, endpoints) lives in its own
 * module, so this one reads as the sequence a request goes through.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Credential, readCredential } from './credential.js';
import type { HandlerState } from './handler-state.js';
import { getProject, projectSubEndpoint } from './project-endpoints.js';
import { errors, frameworkError, json, type Reply } from './replies.js';
import { startRequestLog } from './request-log.js';
import { takeRateLimit } from './request-rate-limit.js';
import { applyResponseFaults, takeReplacingFault } from './response-faults.js';
import { matchRoute, type Route } from './routes.js';
import { userEndpoint } from './user-endpoints.js';

/**
 * The HTTP pipeline: route, faults, credential, rate limit, endpoint, response
 * faults, send. Every request is logged (without the key).
 */
export function createRequestHandler(state: HandlerState) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = state.clock.now();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://simulator.invalid');
    } catch {
      res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'bad request', error_description: null }));
      return;
    }
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const record = startRequestLog(state, { at, method, url });
    // A client that gives up on a slow response still leaves a log entry.
    res.on('close', () => record.finish(res.headersSent ? res.statusCode : 499));

    const send = (reply: Reply, extraHeaders: Record<string, string> = {}) => {
      if (res.destroyed || res.writableEnded) return;
      const text = reply.raw ?? JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        'content-type': reply.contentType ?? 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(text),
        ...extraHeaders,
        ...reply.headers,
      });
      record.finish(reply.status);
      res.end(text);
      state.served({
        receivedAt: at,
        sentAt: state.clock.now(),
        method,
        path,
        query: Object.fromEntries(url.searchParams),
        status: reply.status,
        body: reply.raw ?? reply.body,
      });
    };

    if (method === 'OPTIONS') {
      send(
        { status: 204, body: null, raw: '' },
        {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': 'Authorization, Content-Type',
        },
      );
      return;
    }
    const route = matchRoute(path);
    if (route === null || (method !== 'GET' && method !== 'HEAD')) {
      // Write operations are not simulated: they answer like an unknown route.
      send(frameworkError(404, 'resource not found'));
      return;
    }
    if (route.name === 'incentive' && !/^\d+$/.test(route.id)) {
      send(frameworkError(400, 'bad request'));
      return;
    }

    // Faults that replace the whole response (as an overloaded proxy or a new server version would).
    const slow = state.faults.take('slow', path);
    const slowForMs = slow === undefined ? state.faults.takeRandomSlow(path) : Number(slow.params.delayMs);
    if (slowForMs !== undefined) {
      record.fault = slow === undefined ? 'random-slow' : 'slow';
      const completed = await state.delay(slowForMs);
      if (!completed) {
        // The simulator is closing: record the request as abandoned.
        record.finish(499);
        return;
      }
    }
    const replaced = takeReplacingFault(state, path);
    if (replaced !== undefined) {
      record.fault = replaced.fault;
      send(replaced.reply);
      return;
    }

    const credential = readCredential(req.headers.authorization, state.keys);
    if (credential === 'invalid') {
      record.credential = 'invalid';
      send(errors.invalidKey());
      return;
    }
    record.credential = credential.kind;

    const { headers, rejection } = takeRateLimit(state, credential, req.socket.remoteAddress);
    if (rejection !== undefined) {
      send(rejection, headers);
      return;
    }

    let reply = dispatch(state, route, credential, url.searchParams, path);
    if (reply.status === 200 && state.faults.hasRules)
      reply = applyResponseFaults(state, path, reply, (name) => record.addFault(name));
    send(reply, headers);
  };
}

function dispatch(
  state: HandlerState,
  route: Route,
  credential: Credential,
  query: URLSearchParams,
  path: string,
): Reply {
  switch (route.name) {
    case 'openapi':
      return json(200, state.openApiDocument());
    case 'project':
      return getProject(state, route.lc, credential);
    case 'identity':
    case 'profile':
    case 'own-incentives':
    case 'own-projects':
      return userEndpoint(state, route.name, credential, query);
    default:
      return projectSubEndpoint(state, route, credential, query, path);
  }
}
