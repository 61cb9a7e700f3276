/**
 * The fake Slack's `/api/<method>` endpoint: reads a form-encoded call and its
 * token, applies the history rate limit, injected failures and the token check,
 * then answers with the method's result. Every call is recorded with its outcome.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseForm, readBody, sendJson } from './http-bodies.js';
import { isLateLandingFault, playLateLanding } from './late-landings.js';
import type { MessageStore } from './message-store.js';
import type { TrafficLog } from './traffic-log.js';
import type { WebApiFailures } from './web-api-failures.js';
import type { WebApiMethods } from './web-api-methods.js';

export interface WebApiEndpointDeps {
  /** When set, calls with another bot token answer `invalid_auth`. */
  readonly botToken: string | undefined;
  /** Minimum time between two conversations.history (or two conversations.replies) calls. */
  readonly historyIntervalMs: number | undefined;
  readonly now: () => number;
  /** Waits on the fake's clock: late landings and answers (late-landings.ts). */
  readonly sleep: (ms: number) => Promise<void>;
  readonly log: TrafficLog;
  readonly failures: WebApiFailures;
  /** For failures around a post that did happen. */
  readonly messages: MessageStore;
  readonly methods: WebApiMethods;
  /** Kills the whole fake (the `afterPost: 'kill'` failure). */
  readonly kill: () => void;
}

export type WebApiEndpoint = (method: string, req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createWebApiEndpoint(deps: WebApiEndpointDeps): WebApiEndpoint {
  const { now, log, failures, messages, methods } = deps;
  const lastLookAt = new Map<string, number>();

  return async (method, req, res) => {
    const raw = (await readBody(req)).toString('utf8');
    const args = parseForm(raw);
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ')
      ? auth.slice(7)
      : typeof args.token === 'string'
        ? args.token
        : undefined;
    delete args.token;
    const receivedAt = now();
    const record = (outcome: string) => log.recordCall({ method, args, token, outcome, at: receivedAt });

    const isLook = method === 'conversations.history' || method === 'conversations.replies';
    if (isLook && deps.historyIntervalMs !== undefined) {
      const waitMs = (lastLookAt.get(method) ?? Number.NEGATIVE_INFINITY) + deps.historyIntervalMs - now();
      if (waitMs > 0) {
        record('http 429');
        return sendJson(
          res,
          429,
          { ok: false, error: 'ratelimited' },
          { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        );
      }
      lastLookAt.set(method, now());
    }
    const failure = failures.take(method, args);
    if (failure) {
      if (isLateLandingFault(failure)) {
        return playLateLanding(failure, req, res, {
          sleep: deps.sleep,
          land: () => {
            const message = messages.postMessage(args);
            return { channel: args.channel, ts: message.ts };
          },
          record,
        });
      }
      if ('afterPost' in failure) {
        const message = messages.postMessage(args);
        record(`posted, then ${failure.afterPost}`);
        if (failure.afterPost === 'drop') return void req.socket.destroy();
        if (failure.afterPost === 'kill') return deps.kill();
        if (failure.afterPost === 'hang') return;
        await new Promise((resolve) => setTimeout(resolve, 'delayMs' in failure ? failure.delayMs : 0));
        return sendJson(res, 200, { ok: true, channel: args.channel, ts: message.ts });
      }
      if ('beforePost' in failure) {
        record('hang, nothing posted');
        return;
      }
      if ('error' in failure) {
        record(failure.error);
        return sendJson(res, 200, { ok: false, error: failure.error });
      }
      record(`http ${failure.status}`);
      if (failure.status === 429) {
        return sendJson(
          res,
          429,
          { ok: false, error: 'ratelimited' },
          { 'retry-after': String(failure.retryAfterSeconds) },
        );
      }
      return sendJson(res, failure.status, { ok: false, error: 'fatal_error' });
    }

    // Socket Mode opens with the app-level token (xapp-); every other method takes the bot token.
    const expectsAppToken = method === 'apps.connections.open';
    if (
      expectsAppToken ? !token?.startsWith('xapp-') : deps.botToken !== undefined && token !== deps.botToken
    ) {
      record('invalid_auth');
      return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
    }
    const result = methods(method, args);
    record(result.ok ? 'ok' : String(result.error));
    sendJson(res, 200, result);
  };
}
