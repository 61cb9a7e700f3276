/** How the fake Discord answers over HTTP: JSON bodies, Discord's error shape and its 429s. */
import type { ServerResponse } from 'node:http';
import type { ChannelFault } from './faults.js';

/** Always `application/json`: without it @discordjs/rest hands back raw bytes. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Discord's error body: `{ message, code }` with the fault's status. */
export function sendFault(res: ServerResponse, fault: ChannelFault): void {
  send(res, fault.status, { message: fault.message, code: fault.code });
}

/** A 429 as Discord sends it: `Retry-After` (seconds) and the body's `retry_after`; global ones say so. */
export function sendRateLimited(res: ServerResponse, retryAfterMs: number, global: boolean): void {
  res
    .writeHead(429, {
      'content-type': 'application/json',
      'retry-after': String(retryAfterMs / 1000),
      ...(global
        ? { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' }
        : { 'x-ratelimit-scope': 'user' }),
    })
    .end(
      JSON.stringify({ message: 'You are being rate limited.', retry_after: retryAfterMs / 1000, global }),
    );
}
