/**
 * Socket Mode on the fake Slack: apps.connections.open hands out a ws:// URL under
 * `/link/`; each connection gets `hello`, then envelopes (slash commands), and the
 * acks it sends back are recorded by envelope_id.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import type { TrafficLog } from './traffic-log.js';

export interface SocketMode {
  /** A fresh connection URL, as apps.connections.open returns it. */
  connectionUrl(): string;
  /** Open connections. */
  readonly connections: number;
  /** Delivers a slash command to every connection; returns the envelope id. */
  sendSlashCommand(payload: Record<string, string>): string;
  /**
   * Delivers an Events API payload to ONE connection (Slack spreads events over an app's connections), in
   * turn; false when none is open.
   */
  sendEvent(payload: object): boolean;
  /** Cuts every connection (the server keeps accepting new ones). */
  terminateAll(): void;
  /** Cuts every connection and stops accepting new ones. */
  close(): Promise<void>;
}

/** `baseUrl`: the fake's `http://127.0.0.1:<port>`. */
export function attachSocketMode(server: Server, log: TrafficLog, baseUrl: string): SocketMode {
  const sockets = new Set<WebSocket>();
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
        log.changed();
      });
      ws.on('message', (data) => {
        try {
          const message = JSON.parse(data.toString()) as { envelope_id?: string; payload?: unknown };
          if (message.envelope_id)
            log.recordAck({ envelopeId: message.envelope_id, payload: message.payload });
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
      log.changed();
    });
  });

  let nextSocket = 0;
  const terminateAll = () => {
    for (const ws of sockets) ws.terminate();
  };

  return {
    connectionUrl: () => `${baseUrl.replace(/^http/, 'ws')}/link/?ticket=${randomUUID()}`,
    get connections() {
      return sockets.size;
    },
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
    sendEvent: (payload) => {
      const open = [...sockets];
      const ws = open[nextSocket % Math.max(1, open.length)];
      nextSocket += 1;
      if (!ws) return false;
      ws.send(
        JSON.stringify({
          envelope_id: randomUUID(),
          type: 'events_api',
          payload,
          accepts_response_payload: false,
          retry_attempt: 0,
          retry_reason: '',
        }),
      );
      return true;
    },
    terminateAll,
    async close() {
      terminateAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
