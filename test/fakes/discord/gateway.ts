/**
 * The fake Discord's gateway, on the REST server's port: the handshake discord.js
 * needs before it is ready (HELLO, heartbeat ACK, READY, a GUILD_CREATE per guild,
 * RESUMED) and dispatches to every connected client.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { type FakeGuild, type FakeUser, guildCreatePayload, userPayload } from './fake-discord-payloads.js';

export interface GatewaySettings {
  /** The URL READY gives as `resume_gateway_url`, so reconnects come back here. */
  readonly url: string;
  readonly applicationId: string;
  readonly botUser: FakeUser;
  /** The guilds as they are when a session starts (channels edited since included). */
  readonly guilds: () => readonly FakeGuild[];
  readonly heartbeatIntervalMs: number;
}

export interface Gateway {
  /** Payloads received from clients (IDENTIFY, heartbeats...). */
  readonly received: readonly { readonly op: number; readonly d: unknown }[];
  /**
   * Sends a dispatch (op 0) to every connected client; with `intent` (a GatewayIntentBits bit), only to those
   * that asked for it in IDENTIFY, as Discord does (MESSAGE_CREATE in a server needs GuildMessages).
   */
  broadcast(event: string, d: unknown, intent?: number): void;
  /** Cuts every client (a network drop); new connections are still accepted, so clients reconnect or resume. */
  drop(): void;
  /** Cuts every client and stops accepting new ones (the HTTP server stays up). */
  close(): Promise<void>;
}

export function attachGateway(server: Server, settings: GatewaySettings): Gateway {
  const { url, applicationId, botUser } = settings;
  const received: { op: number; d: unknown }[] = [];
  const sequences = new WeakMap<WebSocket, number>();
  const intents = new WeakMap<WebSocket, number>();
  const wss = new WebSocketServer({ server });

  function dispatch(socket: WebSocket, event: string, d: unknown): void {
    const s = (sequences.get(socket) ?? 0) + 1;
    sequences.set(socket, s);
    socket.send(JSON.stringify({ op: 0, t: event, s, d }));
  }

  wss.on('connection', (socket) => {
    sequences.set(socket, 0);
    socket.send(
      JSON.stringify({
        op: 10,
        d: { heartbeat_interval: settings.heartbeatIntervalMs },
        s: null,
        t: null,
      }),
    );
    socket.on('message', (data) => {
      const payload = JSON.parse(String(data)) as { op: number; d: unknown };
      received.push(payload);
      // Every heartbeat gets its ACK, or discord.js drops the connection as a zombie.
      if (payload.op === 1) socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      if (payload.op === 2) {
        intents.set(socket, Number((payload.d as { intents?: unknown } | null)?.intents ?? 0));
        const guilds = settings.guilds();
        dispatch(socket, 'READY', {
          v: 10,
          user: userPayload(botUser),
          guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
          session_id: randomBytes(8).toString('hex'),
          resume_gateway_url: url,
          shard: [0, 1],
          application: { id: applicationId, flags: 0 },
        });
        // discord.js waits (15 s) for every guild READY lists before it is ready.
        for (const guild of guilds) dispatch(socket, 'GUILD_CREATE', guildCreatePayload(guild, botUser));
      }
      if (payload.op === 6) dispatch(socket, 'RESUMED', {});
    });
  });

  return {
    received,
    broadcast: (event, d, intent) => {
      for (const socket of wss.clients)
        if (intent === undefined || ((intents.get(socket) ?? 0) & intent) !== 0) dispatch(socket, event, d);
    },
    drop: () => {
      for (const socket of wss.clients) socket.terminate();
    },
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
