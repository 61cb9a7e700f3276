/**
 * One REST call as the fake Discord received it: method, path, query, headers and
 * the body decoded the way @discordjs/rest encodes it (JSON, or multipart with files).
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface RecordedFile {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly data: Buffer;
}

export interface RecordedRequest {
  readonly method: string;
  /** Path after `/api/v10`, without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the `payload_json` of a multipart body. */
  readonly body: unknown;
  readonly multipart: boolean;
  readonly files: readonly RecordedFile[];
}

/** Reads the whole request; `apiUrl` only resolves its relative URL. */
export async function readRecordedRequest(req: IncomingMessage, apiUrl: string): Promise<RecordedRequest> {
  const url = new URL(req.url ?? '/', apiUrl);
  const raw = Buffer.concat(await req.toArray());
  const parsed = await parseBody(raw, req.headers['content-type'] ?? '');
  return {
    method: req.method ?? 'GET',
    path: decodeURIComponent(url.pathname).replace(/^\/api\/v10/, ''),
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    ...parsed,
  };
}

/** JSON, or multipart as @discordjs/rest sends attachments: `payload_json` plus `files[n]`. */
async function parseBody(
  raw: Buffer,
  contentType: string,
): Promise<Pick<RecordedRequest, 'body' | 'multipart' | 'files'>> {
  if (raw.length === 0) return { body: undefined, multipart: false, files: [] };
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const files: RecordedFile[] = [];
    let body: unknown;
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        if (field === 'payload_json') body = JSON.parse(value);
      } else {
        files.push({
          field,
          filename: value.name,
          contentType: value.type,
          data: Buffer.from(await value.arrayBuffer()),
        });
      }
    }
    return { body, multipart: true, files };
  }
  const text = raw.toString('utf8');
  return { body: contentType.includes('json') ? JSON.parse(text) : text, multipart: false, files: [] };
}
