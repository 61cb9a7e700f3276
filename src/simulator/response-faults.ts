/**
 * Fault application around an endpoint: faults that replace the whole response
 * (as an overloaded proxy or a new server version would) and faults that damage
 * a successful one. The fault injector (faults.ts) decides which fault is due;
 * this module turns it into HTTP.
 */
import type { HandlerState } from './handler-state.js';
import { apiError, json, type Reply } from './replies.js';

/** The first due fault that replaces the whole response, with its reply; undefined when none is due. */
export function takeReplacingFault(
  state: HandlerState,
  path: string,
): { fault: string; reply: Reply } | undefined {
  const faults = state.faults;
  const unknown = faults.take('unknown-error', path);
  if (unknown !== undefined) {
    const { code, status, description } = unknown.params as {
      code: string;
      status: number;
      description: string | null;
    };
    return { fault: 'unknown-error', reply: apiError(status, code, description) };
  }
  const serverError = faults.take('server-error', path);
  if (serverError !== undefined) {
    const { status, html } = serverError.params as { status: number; html: boolean };
    return { fault: 'server-error', reply: serverErrorReply(status, html) };
  }
  const storm = faults.take('rate-limit-storm', path);
  if (storm !== undefined) {
    const seconds = Number(storm.params.retryAfterSeconds);
    return {
      fault: 'rate-limit-storm',
      reply: json(
        429,
        {
          error: 'rate_limit_exceeded',
          error_description: `Rate limit of the minute window exceeded: wait ${seconds} seconds before retrying.`,
        },
        { 'retry-after': String(seconds) },
      ),
    };
  }
  const random = faults.takeRandom5xx(path);
  if (random !== undefined) return { fault: 'random-5xx', reply: serverErrorReply(random, false) };
  return undefined;
}

function serverErrorReply(status: number, html: boolean): Reply {
  if (html) {
    return {
      status,
      body: null,
      raw: `<html><body><h1>${status} Bad Gateway</h1></body></html>`,
      contentType: 'text/html',
    };
  }
  return apiError(status, 'server error', null);
}

/** Damages a successful reply with the response faults that are due; `note` hears each one applied. */
export function applyResponseFaults(
  state: HandlerState,
  path: string,
  reply: Reply,
  note: (name: string) => void,
): Reply {
  const faults = state.faults;
  // Copy before mutating: a body may be shared (the cached OpenAPI document).
  const body = structuredClone(reply.body);
  if (faults.take('extra-fields', path) !== undefined) {
    addExtraFields(body);
    note('extra-fields');
  }
  const violation = faults.take('schema-violation', path);
  if (violation !== undefined) {
    const { field, value, hasValue } = violation.params as {
      field?: string;
      value: unknown;
      hasValue: boolean;
    };
    breakSchema(body, field, value, hasValue);
    note('schema-violation');
  }
  if (faults.take('malformed-json', path) !== undefined) {
    const text = JSON.stringify(body);
    note('malformed-json');
    return { ...reply, raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
  }
  return { ...reply, body };
}

/** Sets `field` (or the first numeric field) of the first item to a wrongly typed value. */
function breakSchema(body: unknown, field: string | undefined, value: unknown, hasValue: boolean): void {
  if (typeof body !== 'object' || body === null) return;
  const envelope = body as Record<string, unknown>;
  const target = Array.isArray(envelope.data)
    ? envelope.data[0]
    : (envelope.data ?? envelope.project ?? envelope.user);
  if (typeof target !== 'object' || target === null) {
    // An empty list: break the envelope itself.
    if (typeof envelope.meta === 'object' && envelope.meta !== null)
      (envelope.meta as Record<string, unknown>).total = 'many';
    return;
  }
  const item = target as Record<string, unknown>;
  const key = field ?? Object.keys(item).find((k) => typeof item[k] === 'number') ?? Object.keys(item)[0];
  if (key === undefined) return;
  const current = item[key];
  item[key] = hasValue ? value : typeof current === 'number' ? String(current) : 12345;
}

/** Adds unknown fields to the envelope and every item: clients must ignore them. */
function addExtraFields(body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const envelope = body as Record<string, unknown>;
  envelope.x_future_envelope_field = { nested: true };
  const extend = (item: unknown) => {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      Object.assign(item, {
        x_future_field: 'ignored',
        x_future_object: { a: 1, b: [1, 2] },
        x_future_null: null,
      });
    }
  };
  if (Array.isArray(envelope.data)) envelope.data.forEach(extend);
  else extend(envelope.data);
  extend(envelope.project);
  extend(envelope.user);
  extend(envelope.meta);
}
