/**
 * The files.uploadV2 dance on the fake Slack: files.getUploadURLExternal hands out
 * an upload URL on the fake, the bytes arrive there (raw or multipart), and
 * files.completeUploadExternal shares only files whose bytes arrived.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from './http-bodies.js';
import type { TrafficLog } from './traffic-log.js';

export interface FileUploads {
  getUploadURLExternal(args: Record<string, unknown>): Record<string, unknown>;
  completeUploadExternal(args: Record<string, unknown>): Record<string, unknown>;
  /** The upload URL's handler: records the bytes of a file id handed out, 404 for others. */
  receive(fileId: string, req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** `baseUrl`: the fake's `http://127.0.0.1:<port>`, where upload URLs point. */
export function createFileUploads(log: TrafficLog, baseUrl: string): FileUploads {
  const pendingUploads = new Map<string, { filename: string; length: number }>();

  return {
    getUploadURLExternal: (args) => {
      const fileId = `F${randomUUID().slice(0, 8).toUpperCase()}`;
      pendingUploads.set(fileId, { filename: String(args.filename), length: Number(args.length) });
      return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
    },
    completeUploadExternal: (args) => {
      const files = Array.isArray(args.files) ? (args.files as { id: string; title?: string }[]) : [];
      const missing = files.find((f) => !log.uploads.some((u) => u.fileId === f.id));
      if (missing) return { ok: false, error: 'file_not_found' };
      return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
    },
    async receive(fileId, req, res) {
      const raw = await readBody(req);
      const contentType = req.headers['content-type'] ?? 'application/octet-stream';
      let bytes: Uint8Array = raw;
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
        const part = [...form.values()].find((v) => typeof v !== 'string');
        bytes =
          part && typeof part !== 'string' ? new Uint8Array(await part.arrayBuffer()) : new Uint8Array();
      }
      if (!pendingUploads.has(fileId)) {
        res.writeHead(404).end();
        return;
      }
      log.recordUpload({ fileId, bytes });
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${bytes.length}`);
    },
  };
}
