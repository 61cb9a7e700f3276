/**
 * The fake Discord's REST API under `/api/v10`: the routes discord.js and fundbot
 * call (gateway discovery, channels, messages, threads, commands, interaction
 * callbacks and webhooks), each recorded before it is answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ChannelStore, defaultGuild } from './channel-store.js';
import type { DirectMessages } from './direct-messages.js';
import {
  channelPayload,
  type FakeChannel,
  type FakeUser,
  messagePayload,
  snowflake,
} from './fake-discord-payloads.js';
import { channelFaults, type FaultSwitches } from './faults.js';
import { send, sendFault, sendRateLimited } from './json-replies.js';
import { isLateLandingMessageFault, playLateCreate } from './late-landings.js';
import { readRecordedRequest } from './recorded-request.js';
import type { RequestLog } from './request-log.js';

export interface RestRouteDeps {
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  /** The bot token the routes accept (`Authorization: Bot <token>`). */
  readonly token: string;
  readonly applicationId: string;
  readonly botUser: FakeUser;
  readonly log: RequestLog;
  readonly faults: FaultSwitches;
  readonly store: ChannelStore;
  /** Create DM and the messages posted in DM channels. */
  readonly dms: DirectMessages;
  /** Last PUT of application commands per scope: 'global' or the guild id. */
  readonly registeredCommands: Map<string, unknown>;
  /** Waits on the fake's clock (late landings). */
  readonly sleep: (ms: number) => Promise<void>;
  /** The fake's clock: the time in a created message's id. */
  readonly now: () => number;
}

/** The HTTP request listener; an exception in a route answers 500. */
export function createRestHandler(deps: RestRouteDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(deps, req, res).catch((error: unknown) => {
      send(res, 500, { message: String(error), code: 0 });
    });
  };
}

async function handle(deps: RestRouteDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { applicationId, botUser, faults, store } = deps;
  const request = await readRecordedRequest(req, deps.apiUrl);
  deps.log.record(request);
  const { path } = request;
  const authorized = req.headers.authorization === `Bot ${deps.token}`;
  const body = (request.body ?? {}) as Record<string, unknown>;
  const attachments = request.files.map((f) => ({ filename: f.filename, size: f.data.length }));
  const route = (method: string, pattern: RegExp) => (req.method === method ? path.match(pattern) : null);

  // Interaction callbacks and webhook routes authenticate by the token in the path.
  if (route('POST', /^\/interactions\/(\d+)\/([^/]+)\/callback$/)) {
    if (faults.interactionCallbackFault) return sendFault(res, faults.interactionCallbackFault);
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
  if (webhookMessage && faults.webhookEditFault && req.method === 'PATCH') {
    return sendFault(res, faults.webhookEditFault);
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
  // Create DM: the body names the recipient; a bot may open a DM with any user it shares a server with.
  if (route('POST', /^\/users\/@me\/channels$/)) {
    const recipient = body['recipient_id'];
    if (typeof recipient !== 'string' || !/^\d+$/.test(recipient)) {
      return send(res, 400, { message: 'Invalid Form Body', code: 50035 });
    }
    return send(res, 200, deps.dms.open(recipient, deps.now()));
  }
  const dmMessage = route('POST', /^\/channels\/(\d+)\/messages$/);
  if (dmMessage && deps.dms.recipientOf(dmMessage[1] ?? '') !== undefined) {
    const answer = deps.dms.post(dmMessage[1] ?? '', body, botUser, deps.now());
    return send(res, answer.status, answer.body);
  }
  // discord.js has no gateway URL option: it connects where this answer points.
  if (route('GET', /^\/gateway\/bot$/)) {
    return send(res, 200, {
      url: deps.gatewayUrl,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
    });
  }
  const channelGet = route('GET', /^\/channels\/(\d+)$/);
  if (channelGet) {
    const id = channelGet[1] ?? '';
    const fault = faults.channelFault(id);
    if (fault) return sendFault(res, fault);
    const known = store.channel(id);
    if (!known) return send(res, 404, channelFaults.unknownChannel);
    return send(res, 200, channelPayload(known.channel, known.guildId));
  }
  // Start Thread from Message: the thread takes the message's id, as on Discord, and
  // becomes a channel of its own; a second start on the same message answers 160004.
  const startThread = route('POST', /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/);
  if (startThread) {
    const [, parentId = '', messageId = ''] = startThread;
    const parent = store.channel(parentId);
    if (!parent) return send(res, 404, channelFaults.unknownChannel);
    const fault = faults.channelFault(parentId);
    if (fault) return sendFault(res, fault);
    if (!store.findMessage(parentId, messageId)) {
      return send(res, 404, { message: 'Unknown Message', code: 10008 });
    }
    if (store.channel(messageId)) {
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
    store.addThread(thread, parent.guildId);
    return send(res, 201, channelPayload(thread, parent.guildId));
  }
  const listMessages = route('GET', /^\/channels\/(\d+)\/messages$/);
  if (listMessages) {
    const after = BigInt(request.query['after'] ?? '0');
    const limit = Math.min(100, Number(request.query['limit'] ?? 50));
    return send(res, 200, store.messagesAfter(listMessages[1] ?? '', after, limit));
  }
  // A bot deletes its own messages without any permission (others' would need Manage Messages).
  const deleteMessage = route('DELETE', /^\/channels\/(\d+)\/messages\/(\d+)$/);
  if (deleteMessage) {
    const [, channelId = '', messageId = ''] = deleteMessage;
    const old = store.findMessage(channelId, messageId);
    if (!old) return send(res, 404, { message: 'Unknown Message', code: 10008 });
    if ((old['author'] as { id?: string } | undefined)?.id !== botUser.id)
      return send(res, 403, channelFaults.missingPermissions);
    store.deleteMessage(channelId, messageId);
    res.writeHead(204).end();
    return;
  }
  const editMessage = route('PATCH', /^\/channels\/(\d+)\/messages\/(\d+)$/);
  if (editMessage) {
    // Discord keeps the edit: the channel shows the new content from now on.
    const edited = store.editMessage(editMessage[1] ?? '', editMessage[2] ?? '', body);
    if (!edited) return send(res, 404, { message: 'Unknown Message', code: 10008 });
    const { nonce: _nonce, ...shown } = edited;
    return send(res, 200, shown);
  }
  const createMessage = route('POST', /^\/channels\/(\d+)\/messages$/);
  if (createMessage) {
    const id = createMessage[1] ?? '';
    const fault =
      faults.channelFault(id) ??
      (store.channel(id) ? store.createRefusal(id, botUser.id) : channelFaults.unknownChannel);
    if (fault) return sendFault(res, fault);
    const globalWaitMs = faults.globalLimitRemainingMs();
    if (globalWaitMs > 0) return sendRateLimited(res, globalWaitMs, true);
    const messageFault = faults.takeMessageFault();
    if (messageFault && 'rateLimit' in messageFault) {
      const { retryAfterMs, global = false } = messageFault.rateLimit;
      if (global) faults.startGlobalLimit(retryAfterMs);
      return sendRateLimited(res, retryAfterMs, global);
    }
    // enforce_nonce: the same nonce from the same author returns the message already created. Checked when
    // the message is created, which a late landing does late.
    const create = () => {
      const nonceKey = body['enforce_nonce'] === true ? `${id}:${String(body['nonce'])}` : undefined;
      const existing = nonceKey ? store.messageForNonce(nonceKey) : undefined;
      if (existing) return existing;
      const message = messagePayload({
        id: snowflake(deps.now()),
        channelId: id,
        guildId: store.channel(id)?.guildId,
        author: botUser,
        body,
        attachments,
      });
      if (nonceKey) store.rememberNonce(nonceKey, message);
      store.addMessage(id, message);
      return message;
    };
    if (messageFault && isLateLandingMessageFault(messageFault))
      return playLateCreate(messageFault, req, res, { sleep: deps.sleep, create });
    const message = create();
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
    deps.registeredCommands.set(putCommands[2] ?? 'global', stored);
    return send(res, 200, stored);
  }
  send(res, 404, { message: '404: Not Found', code: 0 });
}
