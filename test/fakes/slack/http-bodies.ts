/** Reading the fake Slack's request bodies and writing its JSON answers. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Web API arguments the client sends as JSON strings inside the form. */
const jsonArgs = new Set(['blocks', 'metadata', 'files', 'attachments']);

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** A form-encoded Web API call's arguments, JSON-valued ones parsed back into objects. */
export function parseForm(body: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (jsonArgs.has(key)) {
      try {
        args[key] = JSON.parse(value);
        continue;
      } catch {
        // keep the raw string: a test will see it was not JSON
      }
    }
    args[key] = value;
  }
  return args;
}
