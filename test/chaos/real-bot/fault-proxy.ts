/**
 * The wire between the running bot and one fake platform (test/fakes), on 127.0.0.1: the bot's Slack Web API or
 * Discord REST base points here, and every request meets the fault the seed decides for it (platform-faults.ts,
 * from the seed and the request's identity, as on the virtual clock): a 5xx before or after the platform acted,
 * a 429 with Retry-After, an answer or a landing late, no answer ever, a reset after the request was read, a
 * refusal. The fake does the platform's work (the message lands there, its events go out), the proxy only
 * decides when the request reaches it and what the bot hears back. Every exchange goes into the journal the
 * judge reads. Gateways and Socket Mode go to the fakes directly; requests other than posts, looks and edits
 * (auth, channel reads, command registration) pass untouched.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { parseForm, readBody } from '../../fakes/slack/http-bodies.js';
import type { PlatformFaults } from '../platform-faults.js';
import { visibleStrings } from '../platforms/channel-timeline.js';
import { categoryOf } from '../platforms/discord-transport.js';
import { type JournalEntry, type PlatformReply, rateLimited } from '../platforms/exchange.js';
import { postKindOf, slackRequestCategories } from '../platforms/slack-transport.js';
import type { Platform, RequestCategory, RequestFault } from '../vocabulary.js';

export interface FaultProxyOptions {
  readonly platform: Platform;
  /** The fake's base, e.g. `http://127.0.0.1:4321`. */
  readonly target: string;
  /** The seed's per-request faults; undefined (before the schedule starts): every request passes. */
  readonly faults: () => PlatformFaults | undefined;
  /** Turns the seed's fault into what the running bot meets (real-schedule.ts's pressFault). */
  readonly press: (fault: RequestFault) => RequestFault;
  readonly journal: JournalEntry[];
  /** The bot process now running (for the journal). */
  readonly process: () => string;
  /**
   * Another draw of the seed's per-request weather (run-real-bot.ts `weatherDraw`): 0 or undefined, the seed's own.
   */
  readonly weatherDraw?: number;
  /** Told when a request reached the platform side, before it is played (a kill "mid-post" lands here). */
  readonly received?: (entry: JournalEntry) => void;
}

export interface FaultProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Requests whose landing or answer is still to come. */
  readonly pending: number;
  close(): Promise<void>;
}

export interface Identity {
  readonly category: RequestCategory;
  readonly channel: string;
  readonly key: string;
  readonly text: string;
}

function slackIdentity(path: string, body: Buffer): Identity {
  const method = path.replace(/^\/api\//, '');
  const args = parseForm(body.toString('utf8'));
  const category = slackRequestCategories[method] ?? 'other';
  const metadata = args['metadata'] as { event_payload?: { event_id?: unknown } } | undefined;
  const eventId = metadata?.event_payload?.event_id;
  return {
    category,
    channel: String(args['channel'] ?? args['channel_id'] ?? ''),
    key: typeof eventId === 'string' ? eventId : method,
    text:
      category === 'post' ? visibleStrings({ text: args['text'], blocks: args['blocks'] }).join('\n') : '',
  };
}

function discordIdentity(method: string, path: string, body: Buffer, contentType: string): Identity {
  const route = path.replace(/^\/api\/v\d+/, '');
  const { category, channel } = route.startsWith('/channels/')
    ? categoryOf({ method, path: route })
    : { category: 'other' as const, channel: '' };
  let json: Record<string, unknown> = {};
  if (contentType.startsWith('application/json') && body.length > 0)
    json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  return {
    category,
    channel,
    key: category === 'post' ? String(json['nonce'] ?? 'no-nonce') : `${method} ${route}`,
    text: category === 'post' ? visibleStrings(json['embeds']).join('\n') : '',
  };
}

/**
 * The identity a request's fault is drawn from: its key with the run's wall-clock times taken out. A notice's key
 * holds its funding's time (epoch seconds) and a batch's its minute (epoch ms), and a Discord nonce is a hash of
 * such a key, so drawn from them as they are, every replay of a seed met other faults (seeds 3 and 1 failed "in
 * some runs": their weather, not only their timing, changed run to run). A Discord post is told by its visible
 * text (the supporter's name) instead of its nonce; a repeat with the same text is its next attempt.
 */
export function weatherKey(platform: Platform, id: Identity): string {
  const wallClock = /\d{10,}/g;
  if (platform === 'discord' && id.category === 'post') return `text:${id.text.replace(wallClock, '')}`;
  return id.key.replace(wallClock, '');
}

const passedHeaders = ['content-type', 'retry-after', 'x-ratelimit-scope', 'x-ratelimit-global'];

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  let pending = 0;

  async function forward(req: IncomingMessage, body: Buffer): Promise<PlatformReply> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers[name] = value;
    const response = await fetch(`${options.target}${req.url ?? '/'}`, {
      method: req.method ?? 'GET',
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const replyHeaders: Record<string, string> = {};
    for (const name of passedHeaders) {
      const value = response.headers.get(name);
      if (value !== null) replyHeaders[name] = value;
    }
    return {
      status: response.status,
      body: Buffer.from(await response.arrayBuffer()),
      headers: replyHeaders,
    };
  }

  function send(res: ServerResponse, reply: PlatformReply, entry?: JournalEntry): void {
    if (res.socket?.destroyed || res.writableEnded) return;
    if (entry) entry.answeredAt = Date.now();
    const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(JSON.stringify(reply.body));
    if (process.env['CHAOS_DEBUG'] && reply.status >= 400)
      process.stderr.write(`proxy ${options.platform} ${res.req.method} ${res.req.url} -> ${reply.status}\n`);
    if (reply.status === 204) {
      res.writeHead(204, reply.headers);
      res.end();
      return;
    }
    // A forwarded answer keeps the platform's headers; one made here is JSON.
    res.writeHead(reply.status, {
      ...(Buffer.isBuffer(reply.body) ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      ...reply.headers,
      'content-length': String(body.length),
    });
    res.end(body);
  }

  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    const id =
      options.platform === 'slack'
        ? slackIdentity(path, body)
        : discordIdentity(req.method ?? 'GET', path, body, String(req.headers['content-type'] ?? ''));
    const faults = options.faults();
    if (id.category === 'other' || !faults) return send(res, await forward(req, body));
    const at = Date.now();
    const decided = faults.decide({
      platform: options.platform,
      ...id,
      key: `${options.weatherDraw ? `draw ${options.weatherDraw}|` : ''}${weatherKey(options.platform, id)}`,
      at,
    });
    const fault = options.press(decided.fault);
    const entry: JournalEntry = {
      platform: options.platform,
      category: id.category,
      channel: id.channel,
      key: id.key,
      at,
      process: options.process(),
      fault: fault.kind,
      text: id.text,
      ...(id.category === 'post' ? { postKind: postKindOf(id.text) } : {}),
    };
    if (fault.kind === 'rate-limited') entry.retryAfterMs = fault.retryAfterMs;
    options.journal.push(entry);
    // The client gave up (its timeout) or the connection went: the bot has its answer, whatever it was.
    res.once('close', () => {
      entry.answeredAt ??= Date.now();
    });
    options.received?.(entry);
    const land = async () => {
      const reply = await forward(req, body);
      entry.processedAt = Date.now();
      entry.processedStatus = reply.status;
      return reply;
    };
    pending += 1;
    try {
      await play(fault, req, res, entry, land);
    } finally {
      pending -= 1;
    }
  }

  async function play(
    fault: RequestFault,
    req: IncomingMessage,
    res: ServerResponse,
    entry: JournalEntry,
    land: () => Promise<PlatformReply>,
  ): Promise<void> {
    const error = (status: number) => ({
      status,
      body: { ok: false, error: 'fatal_error', message: 'Internal Server Error', code: 0 },
    });
    switch (fault.kind) {
      case 'ok':
        return send(res, await land(), entry);
      case 'error-before':
        return send(res, error(fault.status), entry);
      case 'error-after':
        await land();
        return send(res, error(fault.status), entry);
      case 'rate-limited':
        return send(res, rateLimited(options.platform, fault.retryAfterMs), entry);
      case 'late-landing':
        await sleep(fault.delayMs);
        return send(res, await land(), entry);
      case 'late-answer': {
        const reply = await land();
        await sleep(fault.delayMs);
        return send(res, reply, entry);
      }
      case 'never-answers':
        // The connection stays open until the client's own timeout closes it.
        if (fault.lands) await land();
        return;
      case 'reset':
        entry.answeredAt = Date.now();
        req.socket.destroy();
        if (fault.lands) await land();
        return;
      case 'refused':
        entry.answeredAt = Date.now();
        req.socket.destroy();
        return;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get pending() {
      return pending;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
