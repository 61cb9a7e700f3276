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
 *   never set is public with the bot as a member; chat.postMessage answers
 *   `not_in_channel`, `is_archived` or `channel_not_found` from the same state;
 * - threads: chat.postMessage with `thread_ts` posts a reply, which conversations.history
 *   leaves out (as Slack does) and conversations.replies returns after its parent.
 * Every request is recorded; failures can be injected per method.
 *
 * This module owns the HTTP server (routing, kill, restart, close) and wires the
 * parts: `web-api-endpoint.ts` and `web-api-methods.ts`, `message-store.ts`,
 * `workspace-directory.ts`, `file-uploads.ts`, `socket-mode.ts`,
 * `web-api-failures.ts` and `late-landings.ts` (faults), `message-events.ts` (the app's `message` events,
 * once it subscribes) and `traffic-log.ts` (what was received, and waits).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFileUploads } from './file-uploads.js';
import { readBody, sendJson } from './http-bodies.js';
import {
  createMessageEvents,
  type MessageEventDelivery,
  type MessageEventOptions,
  type SentMessageEvent,
} from './message-events.js';
import { createMessageStore, type DeletedMessage, type FakeSlackMessage } from './message-store.js';
import { attachSocketMode } from './socket-mode.js';
import {
  createTrafficLog,
  type RecordedAck,
  type RecordedCall,
  type RecordedResponse,
  type RecordedUpload,
} from './traffic-log.js';
import { createWebApiEndpoint } from './web-api-endpoint.js';
import { createWebApiFailures, type FakeSlackFailure } from './web-api-failures.js';
import { createWebApiMethods } from './web-api-methods.js';
import {
  createWorkspaceDirectory,
  type FakeSlackChannel,
  type FakeSlackUser,
} from './workspace-directory.js';

export {
  type LateLandingFault,
  landsAfterMs,
  lateAnswer,
  resetAfterReceive,
} from './late-landings.js';
export type { MessageEventDelivery, MessageEventOptions, SentMessageEvent } from './message-events.js';
export type { DeletedMessage, FakeSlackMessage } from './message-store.js';
export type { RecordedAck, RecordedCall, RecordedResponse, RecordedUpload } from './traffic-log.js';
export type { FakeSlackFailure } from './web-api-failures.js';
export type { FakeSlackChannel, FakeSlackUser } from './workspace-directory.js';

export interface FakeSlackOptions {
  readonly teamId?: string;
  readonly botUserId?: string;
  /** When set, Web API calls with another bot token answer `invalid_auth`. */
  readonly botToken?: string;
  readonly users?: readonly FakeSlackUser[];
  /** Message timestamps come from this clock (default Date.now), as Slack stamps them on arrival. */
  readonly now?: () => number;
  /** Waits on the same clock: late landings and answers, delayed events (default: real timers). */
  readonly sleep?: (ms: number) => Promise<void>;
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
  /** The bot's direct messages to a user (conversations.open, then chat.postMessage to its `D…` id), oldest first. */
  directMessagesTo(userId: string): readonly FakeSlackMessage[];
  /** Adds a message to a channel as another user or bot would (for history tests). */
  addMessage(message: Omit<FakeSlackMessage, 'ts'>): FakeSlackMessage;
  /** Event ids (notice metadata) posted more than once in a channel. */
  duplicateEventIds(channel: string): string[];
  /** Messages deleted (chat.delete), with when. */
  readonly deleted: readonly DeletedMessage[];
  /** The app subscribes to `message` events (message.channels / message.groups): see message-events.ts. */
  subscribeMessageEvents(delivery: MessageEventDelivery, options?: MessageEventOptions): void;
  unsubscribeMessageEvents(): void;
  /** Message events sent so far and how their delivery went. */
  readonly messageEvents: readonly SentMessageEvent[];
  /** Stops listening and cuts every connection, as a killed process would. */
  kill(): void;
  /** Cuts the app's Socket Mode connections only (a network drop): the app reconnects through apps.connections.open. */
  dropSocketConnections(): void;
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
  /** Makes `method` fail `times` times (default: until cleared); with `channel`, only its calls there. */
  fail(method: string, failure: FakeSlackFailure, times?: number, channel?: string): void;
  clearFailures(): void;
  /** A fresh response_url on this fake. */
  responseUrl(): string;
  /** Delivers a slash command over Socket Mode to every connection; returns the envelope id. */
  sendSlashCommand(payload: Record<string, string>): string;
  /** Resolves when `probe` returns a value (checked on every recorded request), rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined | false, description: string, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T0FAKE';
  const botUserId = options.botUserId ?? 'U0BOT';
  const now = options.now ?? (() => Date.now());
  // Unref'd: a retry of an event five minutes out must not keep a finished bench or test process alive.
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref()));
  const log = createTrafficLog();
  const failures = createWebApiFailures();
  const directory = createWorkspaceDirectory(options.users ?? []);
  const messageStore = createMessageStore({ botUserId, now, pageLimit: options.historyPageLimit ?? 15 });

  // Listen first: upload and Socket Mode URLs carry the port. Nothing can call
  // before this function returns them.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  const socketMode = attachSocketMode(server, log, baseUrl);
  const events = createMessageEvents({
    teamId,
    appId: 'A0FAKE',
    socketMode,
    sleep,
    now,
    changed: log.changed,
  });
  messageStore.onMessage(events.landed);
  const files = createFileUploads(log, baseUrl);
  function kill(): void {
    socketMode.terminateAll();
    server.close();
    server.closeAllConnections();
  }
  const handleApi = createWebApiEndpoint({
    botToken: options.botToken,
    historyIntervalMs: options.historyIntervalMs,
    now,
    sleep,
    log,
    failures,
    messages: messageStore,
    methods: createWebApiMethods({ teamId, botUserId, messages: messageStore, directory, files, socketMode }),
    kill,
  });

  server.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const route = async () => {
      if (req.method !== 'POST') return res.writeHead(405).end();
      const api = /^\/api\/([a-zA-Z.]+)$/.exec(path);
      if (api?.[1]) return handleApi(api[1], req, res);
      const upload = /^\/upload\/([A-Z0-9]+)$/.exec(path);
      if (upload?.[1]) return files.receive(upload[1], req, res);
      const respond = /^\/respond\/([a-z0-9-]+)$/.exec(path);
      if (respond?.[1]) {
        const body = JSON.parse((await readBody(req)).toString('utf8')) as Record<string, unknown>;
        log.recordResponse({ id: respond[1], body });
        return sendJson(res, 200, { ok: true });
      }
      res.writeHead(404).end();
    };
    route().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });

  return {
    url: baseUrl,
    apiUrl: `${baseUrl}/api/`,
    calls: log.calls,
    messages: messageStore.messages,
    directMessagesTo: (userId) => messageStore.messages.get(`D${userId}`) ?? [],
    addMessage: messageStore.addMessage,
    duplicateEventIds: messageStore.duplicateEventIds,
    deleted: messageStore.deleted,
    subscribeMessageEvents: events.subscribe,
    unsubscribeMessageEvents: events.unsubscribe,
    messageEvents: events.sent,
    kill,
    restart: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    uploads: log.uploads,
    responses: log.responses,
    acks: log.acks,
    get socketConnections() {
      return socketMode.connections;
    },
    callsTo: log.callsTo,
    setUser: directory.setUser,
    setChannel: directory.setChannel,
    fail: (method, failure, times = Number.POSITIVE_INFINITY, channel) =>
      failures.fail(method, failure, times, channel),
    clearFailures: failures.clear,
    responseUrl: () => `${baseUrl}/respond/${randomUUID()}`,
    sendSlashCommand: socketMode.sendSlashCommand,
    dropSocketConnections: () => socketMode.terminateAll(),
    waitFor: log.waitFor,
    close: async () => {
      await socketMode.close();
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
