import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  channelPayload,
  type FakeChannel,
  type FakeGuild,
  type FakeUser,
  guildCreatePayload,
  memberPayload,
  messagePayload,
  snowflake,
  userPayload,
} from './fake-discord-payloads.js';

/**
 * A small fake Discord on 127.0.0.1: REST under `/api/v10` and a gateway on the
 * same port. It records every REST call, speaks the gateway handshake discord.js
 * needs (HELLO, heartbeat ACK, READY, GUILD_CREATE) and can push interactions.
 * Point a client at it with `rest: { api: fake.apiUrl }`: the client finds the
 * gateway through `GET /gateway/bot`.
 *
 * Threads: Start Thread from Message (`POST /channels/{id}/messages/{mid}/threads`)
 * opens a public thread whose id is the message's, as Discord does; a second start on
 * the same message answers 160004. The thread is then a channel of its own: GET,
 * Create Message, list and PATCH work on it.
 */

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

export interface ChannelFault {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export const channelFaults = {
  unknownChannel: { status: 404, code: 10003, message: 'Unknown Channel' },
  missingAccess: { status: 403, code: 50001, message: 'Missing Access' },
  missingPermissions: { status: 403, code: 50013, message: 'Missing Permissions' },
  serverError: { status: 500, code: 0, message: 'Internal Server Error' },
  unknownInteraction: { status: 404, code: 10062, message: 'Unknown interaction' },
} as const satisfies Record<string, ChannelFault>;

/**
 * What Create Message does instead of a plain success, for a number of calls:
 * the message is created, then the answer is late (`slow`) or the connection is
 * dropped (`drop`: a crash around the post); or Discord refuses with a 429 asking
 * to wait (`rateLimit`, per route or `global`), with `Retry-After` and `retry_after`.
 */
export type MessageFault =
  | { readonly afterCreate: 'slow'; readonly delayMs: number }
  | { readonly afterCreate: 'drop' }
  | { readonly rateLimit: { readonly retryAfterMs: number; readonly global?: boolean } };

export interface FakeDiscordOptions {
  /**
   * How long `enforce_nonce` dedupes a repeat (Discord: a few minutes, undocumented).
   * Default: forever. 0 turns nonce dedupe off, to test what happens after the window.
   */
  readonly nonceWindowMs?: number;
  /** The bot token the fake accepts (`Authorization: Bot <token>`). */
  readonly token?: string;
  readonly applicationId?: string;
  readonly guilds?: readonly FakeGuild[];
  /** Long by default: discord.js jitters its first beat within it, and tests should not depend on it. */
  readonly heartbeatIntervalMs?: number;
}

export interface InteractionMember {
  readonly user?: FakeUser;
  readonly nick?: string | null;
  /** The member's computed permissions in the channel. */
  readonly permissions?: bigint;
}

export interface ChatInputInteraction extends InteractionMember {
  readonly command: string;
  readonly options?: readonly {
    readonly name: string;
    readonly value: string | number | boolean;
    readonly type?: number;
  }[];
  readonly locale?: string;
  readonly guildId?: string | null;
  readonly channelId?: string;
}

export interface AutocompleteInteraction extends ChatInputInteraction {
  /** The option being typed. */
  readonly focused: string;
}

export interface SentInteraction {
  readonly id: string;
  readonly token: string;
}

export interface FakeDiscord {
  /** REST base for discord.js's `rest.api` option (without `/v10`). */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly token: string;
  readonly applicationId: string;
  readonly botUser: FakeUser;
  readonly requests: readonly RecordedRequest[];
  /** Gateway payloads received from clients (IDENTIFY, heartbeats...). */
  readonly gatewayReceived: readonly { readonly op: number; readonly d: unknown }[];
  /** Messages created per channel (after nonce dedupe). */
  readonly channelMessages: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /** Last PUT of application commands per scope: 'global' or the guild id. */
  readonly registeredCommands: ReadonlyMap<string, unknown>;
  /** Changes how long a nonce dedupes (ms; see FakeDiscordOptions.nonceWindowMs). */
  setNonceWindowMs(ms: number): void;
  /** Makes the next `times` Create Message calls (any channel) behave as `fault`. */
  faultMessages(fault: MessageFault, times?: number): void;
  /** Epoch ms of every request, in order (for rate-limit timing). */
  readonly requestTimes: readonly number[];
  /** Makes a channel fail GET and Create Message with Discord's error (undefined heals it). */
  failChannel(channelId: string, fault: ChannelFault | undefined): void;
  /** Makes every interaction callback fail (e.g. 10062 Unknown Interaction), or succeed again with undefined. */
  failInteractionCallbacks(fault: ChannelFault | undefined): void;
  /** Makes every PATCH of an interaction's message fail, or succeed again with undefined. */
  failWebhookEdits(fault: ChannelFault | undefined): void;
  sendChatInput(interaction: ChatInputInteraction): SentInteraction;
  sendAutocomplete(interaction: AutocompleteInteraction): SentInteraction;
  /** Resolves with the first recorded request (past or future) that matches. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedRequest>;
  close(): Promise<void>;
}

const optionTypeOf = (value: string | number | boolean): number =>
  typeof value === 'string' ? 3 : typeof value === 'boolean' ? 5 : Number.isInteger(value) ? 4 : 10;

export const defaultGuild: FakeGuild = {
  id: '100000000000000001',
  name: 'Fund Guild',
  channels: [{ id: '200000000000000001', name: 'campaign' }],
};

export const defaultMember: Required<Pick<InteractionMember, 'user'>> = {
  user: { id: '300000000000000001', username: 'alice', global_name: 'Alice' },
};

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = options.token ?? 'fake-bot-token.ABCDEFGH.ijklmnopqrstuvwxyz';
  const applicationId = options.applicationId ?? '400000000000000001';
  const guilds = options.guilds ?? [defaultGuild];
  const botUser: FakeUser = { id: applicationId, username: 'fundbot', global_name: null, bot: true };
  const requests: RecordedRequest[] = [];
  const gatewayReceived: { op: number; d: unknown }[] = [];
  const channelMessages = new Map<string, Record<string, unknown>[]>();
  const nonces = new Map<string, { message: Record<string, unknown>; at: number }>();
  const messageFaults: { fault: MessageFault; remaining: number }[] = [];
  const requestTimes: number[] = [];
  let globalLimitUntil = 0;
  let nonceWindowMs = options.nonceWindowMs ?? Number.POSITIVE_INFINITY;
  const registeredCommands = new Map<string, unknown>();
  const faults = new Map<string, ChannelFault>();
  let callbackFault: ChannelFault | undefined;
  let editFault: ChannelFault | undefined;
  const waiters = new Set<{
    predicate: (r: RecordedRequest) => boolean;
    resolve: (r: RecordedRequest) => void;
  }>();
  const sequences = new WeakMap<WebSocket, number>();

  // Threads started through the API join the guilds' channels here.
  const channelsById = new Map<string, { channel: FakeChannel; guildId: string }>(
    guilds.flatMap((g) => g.channels.map((c) => [c.id, { channel: c, guildId: g.id }] as const)),
  );

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      send(res, 500, { message: String(error), code: 0 });
    });
  });
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}/api`;
  const gatewayUrl = `ws://127.0.0.1:${port}`;

  function record(request: RecordedRequest): void {
    requests.push(request);
    for (const waiter of waiters) {
      if (waiter.predicate(request)) {
        waiters.delete(waiter);
        waiter.resolve(request);
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', apiUrl);
    const raw = Buffer.concat(await req.toArray());
    const contentType = req.headers['content-type'] ?? '';
    const parsed = await parseBody(raw, contentType);
    const path = decodeURIComponent(url.pathname).replace(/^\/api\/v10/, '');
    requestTimes.push(Date.now());
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      ...parsed,
    };
    record(request);
    const authorized = req.headers.authorization === `Bot ${token}`;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const attachments = request.files.map((f) => ({ filename: f.filename, size: f.data.length }));
    const route = (method: string, pattern: RegExp) => (req.method === method ? path.match(pattern) : null);

    // Interaction callbacks and webhook routes authenticate by the token in the path.
    if (route('POST', /^\/interactions\/(\d+)\/([^/]+)\/callback$/)) {
      if (callbackFault)
        return send(res, callbackFault.status, { message: callbackFault.message, code: callbackFault.code });
      res.writeHead(204).end();
      return;
    }
    const webhookMessage =
      route('PATCH', /^\/webhooks\/(\d+)\/[^/]+\/messages\/(@original|\d+)$/) ??
      route('POST', /^\/webhooks\/(\d+)\/[^/]+$/);
    if (route('DELETE', /^\/webhooks\/\d+\/[^/]+\/messages\/(@original|\d+)$/)) {
      res.writeHead(204).end();
      return;
    }
    if (webhookMessage && editFault && req.method === 'PATCH') {
      return send(res, editFault.status, { message: editFault.message, code: editFault.code });
    }
    if (webhookMessage) {
      const messageId = webhookMessage[2];
      const message = messagePayload({
        id: messageId && messageId !== '@original' ? messageId : snowflake(),
        channelId: defaultGuild.channels[0]?.id ?? '0',
        author: botUser,
        body,
        attachments,
        webhookId: webhookMessage[1],
      });
      return send(res, 200, message);
    }
    if (!authorized) return send(res, 401, { message: '401: Unauthorized', code: 0 });

    if (route('GET', /^\/users\/@me$/)) return send(res, 200, botUser);
    if (route('GET', /^\/gateway\/bot$/)) {
      return send(res, 200, {
        url: gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      });
    }
    const channelGet = route('GET', /^\/channels\/(\d+)$/);
    if (channelGet) {
      const id = channelGet[1] ?? '';
      const fault = faults.get(id);
      if (fault) return send(res, fault.status, { message: fault.message, code: fault.code });
      const known = channelsById.get(id);
      if (!known) return send(res, 404, channelFaults.unknownChannel);
      return send(res, 200, channelPayload(known.channel, known.guildId));
    }
    const startThread = route('POST', /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/);
    if (startThread) {
      const [, parentId = '', messageId = ''] = startThread;
      const parent = channelsById.get(parentId);
      if (!parent) return send(res, 404, channelFaults.unknownChannel);
      const fault = faults.get(parentId);
      if (fault) return send(res, fault.status, { message: fault.message, code: fault.code });
      if (!(channelMessages.get(parentId) ?? []).some((m) => m['id'] === messageId)) {
        return send(res, 404, { message: 'Unknown Message', code: 10008 });
      }
      if (channelsById.has(messageId)) {
        return send(res, 400, {
          message: 'A thread has already been created for this message',
          code: 160004,
        });
      }
      const thread: FakeChannel = {
        id: messageId,
        name: String(body['name'] ?? ''),
        type: 11,
        parentId,
      };
      channelsById.set(messageId, { channel: thread, guildId: parent.guildId });
      return send(res, 201, channelPayload(thread, parent.guildId));
    }
    const listMessages = route('GET', /^\/channels\/(\d+)\/messages$/);
    if (listMessages) {
      // Discord: the `limit` messages right after `after`, newest first, without nonces.
      const after = BigInt(request.query['after'] ?? '0');
      const limit = Math.min(100, Number(request.query['limit'] ?? 50));
      const page = (channelMessages.get(listMessages[1] ?? '') ?? [])
        .filter((m) => BigInt(String(m['id'])) > after)
        .slice(0, limit)
        .reverse()
        .map(({ nonce: _nonce, ...m }) => m);
      return send(res, 200, page);
    }
    const editMessage = route('PATCH', /^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (editMessage) {
      const list = channelMessages.get(editMessage[1] ?? '') ?? [];
      const old = list.find((m) => (m as { id?: string }).id === editMessage[2]);
      if (!old) return send(res, 404, { message: 'Unknown Message', code: 10008 });
      return send(res, 200, { ...old, ...body });
    }
    const createMessage = route('POST', /^\/channels\/(\d+)\/messages$/);
    if (createMessage) {
      const id = createMessage[1] ?? '';
      const fault = faults.get(id) ?? (channelsById.has(id) ? undefined : channelFaults.unknownChannel);
      if (fault) return send(res, fault.status, { message: fault.message, code: fault.code });
      if (Date.now() < globalLimitUntil) return rateLimited(res, globalLimitUntil - Date.now(), true);
      const injected = messageFaults[0];
      if (injected) {
        injected.remaining -= 1;
        if (injected.remaining <= 0) messageFaults.shift();
      }
      const messageFault = injected?.fault;
      if (messageFault && 'rateLimit' in messageFault) {
        const { retryAfterMs, global = false } = messageFault.rateLimit;
        if (global) globalLimitUntil = Date.now() + retryAfterMs;
        return rateLimited(res, retryAfterMs, global);
      }
      // enforce_nonce: the same nonce from the same author returns the message already created.
      const nonceKey = body['enforce_nonce'] === true ? `${id}:${String(body['nonce'])}` : undefined;
      const existing = nonceKey ? nonces.get(nonceKey) : undefined;
      if (existing && Date.now() - existing.at < nonceWindowMs) return send(res, 200, existing.message);
      const message = messagePayload({
        id: snowflake(),
        channelId: id,
        guildId: channelsById.get(id)?.guildId,
        author: botUser,
        body,
        attachments,
      });
      if (nonceKey) nonces.set(nonceKey, { message, at: Date.now() });
      channelMessages.set(id, [...(channelMessages.get(id) ?? []), message]);
      if (messageFault?.afterCreate === 'drop') return void req.socket.destroy();
      if (messageFault?.afterCreate === 'slow') {
        await new Promise((resolve) => setTimeout(resolve, messageFault.delayMs));
        if (req.socket.destroyed) return;
      }
      return send(res, 200, message);
    }
    const putCommands = route('PUT', /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/);
    if (putCommands) {
      if (putCommands[1] !== applicationId) return send(res, 403, { message: 'Missing Access', code: 50001 });
      const commands = Array.isArray(request.body) ? (request.body as Record<string, unknown>[]) : [];
      const stored = commands.map((c) => ({
        ...c,
        id: snowflake(),
        application_id: applicationId,
        version: '1',
      }));
      registeredCommands.set(putCommands[2] ?? 'global', stored);
      return send(res, 200, stored);
    }
    send(res, 404, { message: '404: Not Found', code: 0 });
  }

  wss.on('connection', (socket) => {
    sequences.set(socket, 0);
    socket.send(
      JSON.stringify({
        op: 10,
        d: { heartbeat_interval: options.heartbeatIntervalMs ?? 45_000 },
        s: null,
        t: null,
      }),
    );
    socket.on('message', (data) => {
      const payload = JSON.parse(String(data)) as { op: number; d: unknown };
      gatewayReceived.push(payload);
      if (payload.op === 1) socket.send(JSON.stringify({ op: 11, d: null, s: null, t: null }));
      if (payload.op === 2) {
        dispatch(socket, 'READY', {
          v: 10,
          user: userPayload(botUser),
          guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
          session_id: randomBytes(8).toString('hex'),
          resume_gateway_url: gatewayUrl,
          shard: [0, 1],
          application: { id: applicationId, flags: 0 },
        });
        for (const guild of guilds) dispatch(socket, 'GUILD_CREATE', guildCreatePayload(guild, botUser));
      }
      if (payload.op === 6) dispatch(socket, 'RESUMED', {});
    });
  });

  function dispatch(socket: WebSocket, event: string, d: unknown): void {
    const s = (sequences.get(socket) ?? 0) + 1;
    sequences.set(socket, s);
    socket.send(JSON.stringify({ op: 0, t: event, s, d }));
  }

  function sendInteraction(
    type: 2 | 4,
    interaction: ChatInputInteraction,
    focused?: string,
  ): SentInteraction {
    const id = snowflake();
    const interactionToken = `fake-interaction-token-${randomBytes(12).toString('hex')}`;
    const guildId = interaction.guildId === undefined ? defaultGuild.id : interaction.guildId;
    const guild = guilds.find((g) => g.id === guildId);
    const channel = guild?.channels.find((c) => c.id === interaction.channelId) ?? guild?.channels[0];
    const user = interaction.user ?? defaultMember.user;
    const options = (interaction.options ?? []).map((o) => ({
      name: o.name,
      type: o.type ?? optionTypeOf(o.value),
      value: o.value,
      ...(o.name === focused ? { focused: true } : {}),
    }));
    const inGuild = guildId !== null;
    const payload = {
      id,
      application_id: applicationId,
      type,
      token: interactionToken,
      version: 1,
      locale: interaction.locale ?? 'en-US',
      entitlements: [],
      app_permissions: (2n ** 50n - 1n).toString(),
      attachment_size_limit: 8 * 1024 * 1024,
      authorizing_integration_owners: inGuild ? { '0': guildId } : { '1': user.id },
      context: inGuild ? 0 : 1,
      data: {
        id: snowflake(),
        name: interaction.command,
        type: 1,
        options,
        ...(inGuild ? { guild_id: guildId } : {}),
      },
      ...(inGuild
        ? {
            guild_id: guildId,
            guild_locale: 'en-US',
            guild: { id: guildId, locale: 'en-US', features: [] },
            channel_id: channel?.id ?? interaction.channelId,
            channel: channel ? channelPayload(channel, guildId) : undefined,
            member: memberPayload(user, interaction.permissions ?? 0n, interaction.nick ?? null),
          }
        : {
            channel_id: interaction.channelId ?? '500000000000000001',
            channel: {
              id: interaction.channelId ?? '500000000000000001',
              type: 1,
              recipients: [userPayload(user)],
            },
            user: userPayload(user),
          }),
    };
    for (const socket of wss.clients) dispatch(socket, 'INTERACTION_CREATE', payload);
    return { id, token: interactionToken };
  }

  return {
    apiUrl,
    gatewayUrl,
    token,
    applicationId,
    botUser,
    requests,
    gatewayReceived,
    channelMessages,
    registeredCommands,
    requestTimes,
    setNonceWindowMs: (ms) => {
      nonceWindowMs = ms;
    },
    faultMessages: (fault, times = 1) => {
      messageFaults.push({ fault, remaining: times });
    },
    failChannel: (channelId, fault) => {
      if (fault) faults.set(channelId, fault);
      else faults.delete(channelId);
    },
    failInteractionCallbacks: (fault) => {
      callbackFault = fault;
    },
    failWebhookEdits: (fault) => {
      editFault = fault;
    },
    sendChatInput: (interaction) => sendInteraction(2, interaction),
    sendAutocomplete: (interaction) => sendInteraction(4, interaction, interaction.focused),
    waitForRequest(predicate, timeoutMs = 5_000) {
      const seen = requests.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (request: RecordedRequest) => {
            clearTimeout(timer);
            resolve(request);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`fake Discord: no matching request within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A 429 as Discord sends it: `Retry-After` (seconds) and the body's `retry_after`; global ones say so. */
function rateLimited(res: ServerResponse, retryAfterMs: number, global: boolean): void {
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

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
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
