import type { KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIInteraction } from 'discord.js';
import type { Clock } from '../../../lib/clock.js';
import type { DiscordAdapterLogger } from '../logger.js';
import type { InteractionAnswer } from './handle-interaction.js';
import type { InteractionReplayGuard } from './replay-guard.js';
import { checkDiscordSignature } from './verify-signature.js';

/** Interaction payloads are a few kilobytes; anything far larger is not from Discord. */
const maxBodyBytes = 256 * 1024;
/** How long close() lets requests in flight finish before cutting their sockets (the deferral takes 2 s). */
const closeGraceMs = 3_000;

export interface InteractionsServerOptions {
  readonly host: string | undefined;
  readonly port: number;
  /** The path Discord posts to, e.g. `/discord/interactions`. */
  readonly path: string;
  readonly publicKey: KeyObject;
  readonly clock: Clock;
  readonly logger: DiscordAdapterLogger;
  /** `receivedAt`: the clock's time when the request arrived, before its body, signature and replay check. */
  readonly handle: (interaction: APIInteraction, receivedAt: number) => Promise<InteractionAnswer>;
  /** Refuses an interaction id seen before (a replayed request). */
  readonly replayGuard: InteractionReplayGuard;
  /** Work that runs after an answer was sent (deferred completions), so stop() can wait for it. */
  readonly track: (work: Promise<void>) => void;
}

export interface InteractionsServer {
  /** e.g. `http://127.0.0.1:3001/discord/interactions` (the host as bound; the public URL is the operator's). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The endpoint Discord posts interactions to (Developer Portal → General
 * Information → Interactions Endpoint URL). Plain node:http: one route, and the
 * signature needs the raw bytes before any parsing. Unsigned or wrongly signed
 * requests, and timestamps more than 5 minutes off, get 401 (Discord itself sends
 * such probes when the URL is saved and refuses an endpoint that accepts them); an
 * interaction already handled (a replay, see {@link InteractionReplayGuard}) gets 409
 * and runs nothing; only POST on the path is served.
 */
export async function startInteractionsServer(
  options: InteractionsServerOptions,
): Promise<InteractionsServer> {
  const { logger } = options;
  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      logger.error(
        { message: error instanceof Error ? error.message : String(error) },
        'interaction request failed',
      );
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  // Discord waits 3 seconds for an answer; a client holding a socket longer is not Discord.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Discord's 3 s run from here: reading the body, the Ed25519 check and the replay check's store write
    // all count, and on a CPU-busy process they can take a large share of it (issue 24: 3.53 s).
    const receivedAt = options.clock.now();
    const path = (req.url ?? '/').split('?')[0];
    if (path !== options.path)
      return sendJson(res, 404, { error: `not found: Discord posts to ${options.path}` });
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return sendJson(res, 405, { error: 'method not allowed' });
    }
    const raw = await readBody(req);
    if (!raw) return sendJson(res, 413, { error: 'payload too large' });
    const check = checkDiscordSignature(
      options.publicKey,
      { signature: header(req, 'x-signature-ed25519'), timestamp: header(req, 'x-signature-timestamp') },
      raw,
      options.clock.now(),
    );
    if (!check.ok) {
      // Discord probes with bad signatures on purpose; a steady stream of 'stale' means this host's clock is off.
      logger.debug({ reason: check.reason }, 'discord interaction refused: bad signature');
      return sendJson(res, 401, { error: 'invalid request signature' });
    }
    let interaction: APIInteraction;
    try {
      interaction = JSON.parse(raw.toString('utf8')) as APIInteraction;
    } catch {
      return sendJson(res, 400, { error: 'body is not JSON' });
    }
    if (!(await firstSeen(interaction))) {
      logger.warn(
        { interactionId: interaction.id },
        'discord interaction refused: already handled (a replay)',
      );
      return sendJson(res, 409, { error: 'interaction already handled' });
    }
    const answer = await options.handle(interaction, receivedAt);
    const after = answer.after;
    if (after) {
      // Completion starts once the deferral is on the wire, even if the client hung up meanwhile.
      const sent = new Promise<void>((resolve) => res.once('close', resolve));
      options.track(sent.then(after));
    }
    sendJson(res, answer.status, answer.body);
  }

  /** PINGs carry nothing to run twice. A store that fails lets the interaction through: the signature and its age were checked. */
  async function firstSeen(interaction: APIInteraction): Promise<boolean> {
    if (interaction.type === 1 || typeof interaction.id !== 'string') return true;
    try {
      return await options.replayGuard.firstSeen(interaction.id);
    } catch (error) {
      logger.warn(
        { interactionId: interaction.id, message: error instanceof Error ? error.message : String(error) },
        'discord replay check failed (the store does not answer): interaction handled without it',
      );
      return true;
    }
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
  return {
    url: `http://${host}:${address.port}${options.path}`,
    async close() {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      // Requests in flight get their answer (at most the deferral delay); idle keep-alive sockets go now.
      server.closeIdleConnections();
      const grace = new AbortController();
      void options.clock.sleep(closeGraceMs, grace.signal).then(
        () => server.closeAllConnections(),
        () => {},
      );
      try {
        await closed;
      } finally {
        grace.abort();
      }
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The raw body, or undefined when it exceeds {@link maxBodyBytes}. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
