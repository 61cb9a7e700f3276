/**
 * A fake Slack on 127.0.0.1 for driving the real @slack/bolt and @slack/web-api:
 * - the Web API at `/api/<method>` (form-encoded; JSON-valued arguments such as
 *   `blocks`, `metadata` and `files` are parsed back into objects);
 * - the files.uploadV2 dance: files.getUploadURLExternal hands out an upload URL
 *   on the fake, the bytes arrive there, files.completeUploadExternal shares them;
 * - Socket Mode: apps.connections.open returns a ws:// URL on the fake, which
 *   says `hello`, delivers envelopes and records the acks by envelope_id;
 * - response_url endpoints recording what `respond()` sent;
 * - conversations.info from per-channel state ({@link FakeSlack.setChannel}); a channel
 *   never set is public with the bot as a member;
 * - threads: chat.postMessage with `thread_ts` posts a reply, which conversations.history
 *   leaves out (as Slack does) and conversations.replies returns after its parent.
 * Every request is recorded; failures can be injected per method.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface FakeSlackUser {
  readonly id: string;
  readonly team_id: string;
  readonly name: string;
  readonly real_name?: string;
  readonly is_admin?: boolean;
  readonly is_owner?: boolean;
  readonly is_restricted?: boolean;
  readonly deleted?: boolean;
  readonly locale?: string;
  readonly profile?: { readonly display_name?: string; readonly real_name?: string };
}

/** A conversation as conversations.info reports it to the bot. */
export interface FakeSlackChannel {
  readonly id: string;
  /** Default true. */
  readonly isMember?: boolean;
  readonly isArchived?: boolean;
  /** A private channel the bot is not in is invisible to it: `channel_not_found`. */
  readonly isPrivate?: boolean;
  readonly isIm?: boolean;
}

/** What a method answers instead of success. */
export type FakeSlackFailure =
  | { readonly error: string }
  | { readonly status: 429; readonly retryAfterSeconds: number }
  | { readonly status: 500 | 502 | 503 }
  /**
   * Faults around a post that DID happen (chat.postMessage only): the message is
   * in the channel, but the answer is late (`slow`), never comes until the client
   * gives up (`hang`), the connection is dropped (`drop`), or the whole fake is
   * killed mid-request (`kill`: restart it with `restart()`).
   */
  | { readonly afterPost: 'slow'; readonly delayMs: number }
  | { readonly afterPost: 'hang' | 'drop' | 'kill' }
  /** The request hangs and NOTHING is posted (chat.postMessage only). */
  | { readonly beforePost: 'hang' };

/** A message as the fake's channel history holds it. */
export interface FakeSlackMessage {
  readonly ts: string;
  readonly channel: string;
  readonly user: string;
  readonly bot_id?: string;
  readonly text: string;
  /** A reply's parent `ts` (a parent with replies does not carry it in this fake). */
  readonly thread_ts?: string;
  readonly metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

export interface RecordedCall {
  readonly method: string;
  readonly args: Record<string, unknown>;
  /** The bearer token the call carried (compare, never print). */
  readonly token: string | undefined;
  /** What the fake answered. */
  readonly outcome: 'ok' | string;
}

export interface RecordedUpload {
  readonly fileId: string;
  readonly bytes: Uint8Array;
}

export interface RecordedResponse {
  readonly id: string;
  readonly body: Record<string, unknown>;
}

export interface RecordedAck {
  readonly envelopeId: string;
  readonly payload: unknown;
}

export interface FakeSlackOptions {
  readonly teamId?: string;
  readonly botUserId?: string;
  /** When set, Web API calls with another bot token answer `invalid_auth`. */
  readonly botToken?: string;
  readonly users?: readonly FakeSlackUser[];
  /** Message timestamps come from this clock (default Date.now), as Slack stamps them on arrival. */
  readonly now?: () => number;
  /**
   * Minimum time between two conversations.history calls, and between two
   * conversations.replies calls (Slack: about 1 a minute each for apps outside the
   * Marketplace); an earlier call gets 429 with Retry-After. Default: no limit.
   */
  readonly historyIntervalMs?: number;
  /** Most messages one conversations.history page returns (Slack: 15 for those apps). Default 15. */
  readonly historyPageLimit?: number;
}

export interface FakeSlack {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** For WebClient's `slackApiUrl`: `http://127.0.0.1:<port>/api/` */
  readonly apiUrl: string;
  readonly calls: readonly RecordedCall[];
  /** Every message posted, per channel, oldest first (what a user would see). */
  readonly messages: ReadonlyMap<string, readonly FakeSlackMessage[]>;
  /** Adds a message to a channel as another user or bot would (for history tests). */
  addMessage(message: Omit<FakeSlackMessage, 'ts'>): FakeSlackMessage;
  /** Event ids (notice metadata) posted more than once in a channel. */
  duplicateEventIds(channel: string): string[];
  /** Stops listening and cuts every connection, as a killed process would. */
  kill(): void;
  /** Listens again on the same port with the same channels. */
  restart(): Promise<void>;
  readonly uploads: readonly RecordedUpload[];
  readonly responses: readonly RecordedResponse[];
  readonly acks: readonly RecordedAck[];
  /** Open Socket Mode connections. */
  readonly socketConnections: number;
  callsTo(method: string): readonly RecordedCall[];
  setUser(user: FakeSlackUser): void;
  setChannel(channel: FakeSlackChannel): void;
  /** Makes `method` fail `times` times (default: until cleared). */
  fail(method: string, failure: FakeSlackFailure, times?: number): void;
  clearFailures(): void;
  /** A fresh response_url on this fake. */
  responseUrl(): string;
  /** Delivers a slash command over Socket Mode to every connection; returns the envelope id. */
  sendSlashCommand(payload: Record<string, string>): string;
  /** Resolves when `probe` returns a value (checked on every recorded request), rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined | false, description: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const jsonArgs = new Set(['blocks', 'metadata', 'files', 'attachments']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function parseForm(body: string): Record<string, unknown> {
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

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T0FAKE';
  const botUserId = options.botUserId ?? 'U0BOT';
  const users = new Map<string, FakeSlackUser>((options.users ?? []).map((u) => [u.id, u]));
  const channels = new Map<string, FakeSlackChannel>();
  const calls: RecordedCall[] = [];
  const uploads: RecordedUpload[] = [];
  const responses: RecordedResponse[] = [];
  const acks: RecordedAck[] = [];
  const failures = new Map<string, { failure: FakeSlackFailure; remaining: number }>();
  const pendingUploads = new Map<string, { filename: string; length: number }>();
  const events = new EventEmitter();
  const sockets = new Set<WebSocket>();
  const now = options.now ?? (() => Date.now());
  const messages = new Map<string, FakeSlackMessage[]>();
  const pageLimit = options.historyPageLimit ?? 15;
  const lastLookAt = new Map<string, number>();
  let lastTsMicros = 0;
  let baseUrl = '';
  let port = 0;

  /** Slack's ts: seconds.microseconds of arrival, unique per workspace. */
  function nextTs(): string {
    lastTsMicros = Math.max(lastTsMicros + 1, now() * 1000);
    return `${Math.floor(lastTsMicros / 1e6)}.${String(lastTsMicros % 1e6).padStart(6, '0')}`;
  }
  function addMessage(message: Omit<FakeSlackMessage, 'ts'>): FakeSlackMessage {
    const stored = { ...message, ts: nextTs() };
    messages.set(message.channel, [...(messages.get(message.channel) ?? []), stored]);
    return stored;
  }
  function postMessage(args: Record<string, unknown>): FakeSlackMessage {
    const metadata = args.metadata as FakeSlackMessage['metadata'] | undefined;
    return addMessage({
      channel: String(args.channel),
      user: botUserId,
      bot_id: 'B0BOT',
      text: String(args.text ?? ''),
      ...(typeof args.thread_ts === 'string' ? { thread_ts: args.thread_ts } : {}),
      ...(metadata ? { metadata } : {}),
    });
  }
  /** A message as the Web API lists it: metadata only when asked for. */
  const listed =
    (withMetadata: boolean) =>
    ({ metadata, channel: _c, ...m }: FakeSlackMessage) => ({
      type: 'message',
      ...m,
      ...(withMetadata && metadata ? { metadata } : {}),
    });
  /** conversations.replies: the parent, then its replies in the range, oldest first. */
  function replies(args: Record<string, unknown>): Record<string, unknown> {
    const all = messages.get(String(args.channel)) ?? [];
    const ts = String(args.ts);
    const parent = all.find((m) => m.ts === ts);
    if (!parent) return { ok: false, error: 'thread_not_found' };
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest === undefined ? Number.POSITIVE_INFINITY : Number(args.latest);
    const limit = Math.min(pageLimit, Number(args.limit ?? 100) || 100);
    const offset = Number(args.cursor ?? 0) || 0;
    const inRange = all.filter((m) => m.thread_ts === ts && Number(m.ts) > oldest && Number(m.ts) <= latest);
    const page = inRange.slice(offset, offset + limit);
    const hasMore = inRange.length > offset + limit;
    return {
      ok: true,
      messages: [parent, ...page].map(listed(args.include_all_metadata === 'true')),
      has_more: hasMore,
      response_metadata: { next_cursor: hasMore ? String(offset + limit) : '' },
    };
  }
  function history(args: Record<string, unknown>): Record<string, unknown> {
    const channel = String(args.channel);
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest === undefined ? Number.POSITIVE_INFINITY : Number(args.latest);
    const limit = Math.min(pageLimit, Number(args.limit ?? 100) || 100);
    const offset = Number(args.cursor ?? 0) || 0;
    // Replies live in their thread: the channel's history does not show them.
    const inRange = (messages.get(channel) ?? [])
      .filter((m) => m.thread_ts === undefined && Number(m.ts) > oldest && Number(m.ts) <= latest)
      .reverse();
    const page = inRange.slice(offset, offset + limit);
    const withMetadata = args.include_all_metadata === 'true';
    const hasMore = inRange.length > offset + limit;
    return {
      ok: true,
      messages: page.map(listed(withMetadata)),
      has_more: hasMore,
      response_metadata: { next_cursor: hasMore ? String(offset + limit) : '' },
    };
  }

  const record = (call: RecordedCall) => {
    calls.push(call);
    events.emit('record');
  };

  function methodResult(method: string, args: Record<string, unknown>): Record<string, unknown> {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.example/',
          team: 'Fake',
          user: 'fundbot',
          team_id: teamId,
          user_id: botUserId,
          bot_id: 'B0BOT',
        };
      case 'chat.postMessage': {
        const message = postMessage(args);
        return {
          ok: true,
          channel: args.channel,
          ts: message.ts,
          message: { text: args.text, blocks: args.blocks },
        };
      }
      case 'chat.update':
        // Recorded in `calls`; the fake keeps the posted message as it was.
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'conversations.history':
        return history(args);
      case 'conversations.replies':
        return replies(args);
      case 'users.info': {
        const user = users.get(String(args.user));
        if (!user) return { ok: false, error: 'user_not_found' };
        const { locale, ...rest } = user;
        return { ok: true, user: args.include_locale === 'true' && locale ? { ...rest, locale } : rest };
      }
      case 'files.getUploadURLExternal': {
        const fileId = `F${randomUUID().slice(0, 8).toUpperCase()}`;
        pendingUploads.set(fileId, { filename: String(args.filename), length: Number(args.length) });
        return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal': {
        const files = Array.isArray(args.files) ? (args.files as { id: string; title?: string }[]) : [];
        const missing = files.find((f) => !uploads.some((u) => u.fileId === f.id));
        if (missing) return { ok: false, error: 'file_not_found' };
        return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
      }
      case 'conversations.info': {
        const id = String(args.channel);
        const channel = channels.get(id) ?? { id };
        const isMember = channel.isMember ?? true;
        if (channel.isPrivate && !isMember) return { ok: false, error: 'channel_not_found' };
        return {
          ok: true,
          channel: {
            id,
            is_channel: !channel.isPrivate && !channel.isIm,
            is_group: channel.isPrivate ?? false,
            is_im: channel.isIm ?? false,
            is_private: channel.isPrivate ?? false,
            is_archived: channel.isArchived ?? false,
            ...(channel.isIm ? {} : { is_member: isMember }),
          },
        };
      }
      case 'apps.connections.open':
        return { ok: true, url: `${baseUrl.replace(/^http/, 'ws')}/link/?ticket=${randomUUID()}` };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }

  async function handleApi(method: string, req: IncomingMessage, res: ServerResponse) {
    const raw = (await readBody(req)).toString('utf8');
    const args = parseForm(raw);
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ')
      ? auth.slice(7)
      : typeof args.token === 'string'
        ? args.token
        : undefined;
    delete args.token;

    const isLook = method === 'conversations.history' || method === 'conversations.replies';
    if (isLook && options.historyIntervalMs !== undefined) {
      const waitMs = (lastLookAt.get(method) ?? Number.NEGATIVE_INFINITY) + options.historyIntervalMs - now();
      if (waitMs > 0) {
        record({ method, args, token, outcome: 'http 429' });
        return sendJson(
          res,
          429,
          { ok: false, error: 'ratelimited' },
          { 'retry-after': String(Math.ceil(waitMs / 1000)) },
        );
      }
      lastLookAt.set(method, now());
    }
    const injected = failures.get(method);
    if (injected && injected.remaining > 0) {
      injected.remaining -= 1;
      const { failure } = injected;
      if ('afterPost' in failure) {
        const message = postMessage(args);
        record({ method, args, token, outcome: `posted, then ${failure.afterPost}` });
        if (failure.afterPost === 'drop') return req.socket.destroy();
        if (failure.afterPost === 'kill') return kill();
        if (failure.afterPost === 'hang') return;
        await new Promise((resolve) => setTimeout(resolve, 'delayMs' in failure ? failure.delayMs : 0));
        return sendJson(res, 200, { ok: true, channel: args.channel, ts: message.ts });
      }
      if ('beforePost' in failure) {
        record({ method, args, token, outcome: 'hang, nothing posted' });
        return;
      }
      if ('error' in failure) {
        record({ method, args, token, outcome: failure.error });
        return sendJson(res, 200, { ok: false, error: failure.error });
      }
      record({ method, args, token, outcome: `http ${failure.status}` });
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

    const expectsAppToken = method === 'apps.connections.open';
    if (
      expectsAppToken
        ? !token?.startsWith('xapp-')
        : options.botToken !== undefined && token !== options.botToken
    ) {
      record({ method, args, token, outcome: 'invalid_auth' });
      return sendJson(res, 200, { ok: false, error: 'invalid_auth' });
    }
    const result = methodResult(method, args);
    record({ method, args, token, outcome: result.ok ? 'ok' : String(result.error) });
    sendJson(res, 200, result);
  }

  async function handleUpload(fileId: string, req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const contentType = req.headers['content-type'] ?? 'application/octet-stream';
    let bytes: Uint8Array = raw;
    if (contentType.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
      const part = [...form.values()].find((v): v is File => typeof v !== 'string');
      bytes = part ? new Uint8Array(await part.arrayBuffer()) : new Uint8Array();
    }
    if (!pendingUploads.has(fileId)) {
      res.writeHead(404).end();
      return;
    }
    uploads.push({ fileId, bytes });
    events.emit('record');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${bytes.length}`);
  }

  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const route = async () => {
      if (req.method !== 'POST') return res.writeHead(405).end();
      const api = /^\/api\/([a-zA-Z.]+)$/.exec(path);
      if (api?.[1]) return handleApi(api[1], req, res);
      const upload = /^\/upload\/([A-Z0-9]+)$/.exec(path);
      if (upload?.[1]) return handleUpload(upload[1], req, res);
      const respond = /^\/respond\/([a-z0-9-]+)$/.exec(path);
      if (respond?.[1]) {
        const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
        responses.push({ id: respond[1], body });
        events.emit('record');
        return sendJson(res, 200, { ok: true });
      }
      res.writeHead(404).end();
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/link/')) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        events.emit('record');
      });
      ws.on('message', (data) => {
        try {
          const message = JSON.parse(data.toString()) as { envelope_id?: string; payload?: unknown };
          if (message.envelope_id) {
            acks.push({ envelopeId: message.envelope_id, payload: message.payload });
            events.emit('record');
          }
        } catch {
          // not JSON: ignored, like Slack would
        }
      });
      ws.send(
        JSON.stringify({
          type: 'hello',
          num_connections: sockets.size,
          debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
          connection_info: { app_id: 'A0FAKE' },
        }),
      );
      events.emit('record');
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;

  function kill(): void {
    for (const ws of sockets) ws.terminate();
    server.close();
    server.closeAllConnections();
  }

  return {
    url: baseUrl,
    apiUrl: `${baseUrl}/api/`,
    calls,
    messages,
    addMessage,
    duplicateEventIds: (channel) => {
      const seen = new Map<string, number>();
      for (const m of messages.get(channel) ?? []) {
        const id = m.metadata?.event_payload['event_id'];
        if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    },
    kill,
    restart: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    uploads,
    responses,
    acks,
    get socketConnections() {
      return sockets.size;
    },
    callsTo: (method) => calls.filter((c) => c.method === method),
    setUser: (user) => {
      users.set(user.id, user);
    },
    setChannel: (channel) => {
      channels.set(channel.id, channel);
    },
    fail: (method, failure, times = Number.POSITIVE_INFINITY) => {
      failures.set(method, { failure, remaining: times });
    },
    clearFailures: () => failures.clear(),
    responseUrl: () => `${baseUrl}/respond/${randomUUID()}`,
    sendSlashCommand: (payload) => {
      const envelopeId = randomUUID();
      const envelope = {
        envelope_id: envelopeId,
        type: 'slash_commands',
        payload,
        accepts_response_payload: true,
      };
      for (const ws of sockets) ws.send(JSON.stringify(envelope));
      return envelopeId;
    },
    waitFor: <T>(probe: () => T | undefined | false, description: string, timeoutMs = 5000) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const value = probe();
          if (value === undefined || value === false) return;
          cleanup();
          resolve(value);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`fake Slack: timed out waiting for ${description}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          events.off('record', check);
        };
        events.on('record', check);
        check();
      }),
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
