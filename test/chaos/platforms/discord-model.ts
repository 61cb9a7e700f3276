/**
 * Discord in the chaos world's process: the REST routes fundbot's posters use (rest-poster.ts,
 * discord-rest-delivery.ts, rest-channel-access.ts), without HTTP, on the world's clock, following Discord's
 * documentation as the fake Discord (test/fakes/discord) does and reusing its payloads and permission rules:
 * message ids are snowflakes of the time the message was created; Create Message with `enforce_nonce` returns the
 * message a nonce already made while the nonce window lasts (Discord: "a few minutes"; the seed picks it); edits
 * replace the embeds; Start Thread from Message opens a thread with the message's id; the bot's permissions in a
 * channel (its overwrites) decide Create Message (50013 Missing Permissions, 50001 Missing Access); a bot deletes
 * its own messages. Every message created is told to the `onLanded` listeners (the gateway's MESSAGE_CREATE:
 * world/own-message-events.ts).
 */
import {
  channelPayload,
  defaultBotPermissions,
  type FakeChannel,
  type FakeGuild,
  type FakeUser,
  messagePayload,
  userPayload,
} from '../../fakes/discord/fake-discord-payloads.js';
import { botPermissionsIn, createMessageRefusal } from '../../fakes/discord/permissions.js';
import type { ManualClock } from '../../support/manual-clock.js';
import type { ChannelTimeline } from './channel-timeline.js';

export const chaosDiscord = {
  guildId: '100000000000000777',
  botUserId: '400000000000000777',
  token: 'chaos-bot-token.ABCDEFGH.ijklmnopqrstuvwxyz',
  apiUrl: 'https://discord.chaos.invalid/api',
} as const;

const sendMessages = 1n << 11n;
const discordEpoch = 1_420_070_400_000n;

export interface DiscordAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** One REST call as the model reads it: the route, the JSON body (or a multipart `payload_json`) and files. */
export interface DiscordCall {
  readonly method: string;
  /** Path after `/api/v10`. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: Record<string, unknown>;
  readonly files: readonly { readonly filename: string; readonly size: number }[];
}

export interface DiscordModel {
  call(request: DiscordCall): DiscordAnswer;
  /** The bot loses (false) or gets back (true) Send Messages in a channel, as an admin's overwrite does. */
  setCanSend(channelId: string, canSend: boolean): void;
  /** Messages per channel (a thread is a channel of its own), oldest first. */
  readonly channelMessages: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /** Told of every message created, when it is created (`threadParentId`: it is a reply in that channel's thread). */
  onLanded(listener: (landed: DiscordLanding) => void): void;
}

export interface DiscordLanding {
  readonly channelId: string;
  readonly threadParentId?: string;
  readonly message: Record<string, unknown>;
}

export function createDiscordModel(
  clock: ManualClock,
  options: { channels: readonly string[]; nonceWindowMs: number; timeline: ChannelTimeline },
): DiscordModel {
  const bot: FakeUser = { id: chaosDiscord.botUserId, username: 'fundbot', global_name: null, bot: true };
  const channels = new Map<string, FakeChannel>(
    options.channels.map((id) => [id, { id, name: `chaos-${id.slice(-3)}` }]),
  );
  const guild = (): FakeGuild => ({
    id: chaosDiscord.guildId,
    name: 'Chaos Guild',
    channels: [...channels.values()],
    botPermissions: defaultBotPermissions,
  });
  const messages = new Map<string, Record<string, unknown>[]>();
  const nonces = new Map<string, { message: Record<string, unknown>; at: number }>();
  const landedListeners: ((landed: DiscordLanding) => void)[] = [];
  let sequence = 0n;
  const snowflake = () => {
    sequence += 1n;
    return (((BigInt(Math.floor(clock.now())) - discordEpoch) << 22n) | (sequence & 0x3fffffn)).toString();
  };
  const judged = (channelId: string) => `discord:${channels.get(channelId)?.parentId ?? channelId}`;
  const notFound = (what: string, code: number): DiscordAnswer => ({
    status: 404,
    body: { message: `Unknown ${what}`, code },
  });

  function createMessage(channelId: string, call: DiscordCall): DiscordAnswer {
    const channel = channels.get(channelId);
    if (!channel) return notFound('Channel', 10003);
    const parent = channel.parentId ? channels.get(channel.parentId) : undefined;
    const refusal = createMessageRefusal(
      botPermissionsIn(guild(), channel, bot.id, parent),
      channel.parentId !== undefined,
    );
    if (refusal) return { status: refusal.status, body: { message: refusal.message, code: refusal.code } };
    const nonceKey =
      call.body['enforce_nonce'] === true ? `${channelId}:${String(call.body['nonce'])}` : undefined;
    const earlier = nonceKey ? nonces.get(nonceKey) : undefined;
    if (earlier && clock.now() - earlier.at < options.nonceWindowMs)
      return { status: 200, body: earlier.message };
    const message = messagePayload({
      id: snowflake(),
      channelId,
      guildId: chaosDiscord.guildId,
      author: bot,
      body: call.body,
      attachments: call.files,
      newId: snowflake,
    });
    if (nonceKey) nonces.set(nonceKey, { message, at: clock.now() });
    messages.set(channelId, [...(messages.get(channelId) ?? []), message]);
    options.timeline.record(clock.now(), judged(channelId), `discord/${String(message['id'])}`, message);
    const landed = { channelId, ...(channel.parentId ? { threadParentId: channel.parentId } : {}), message };
    for (const listener of landedListeners) listener(landed);
    return { status: 200, body: message };
  }

  function call(request: DiscordCall): DiscordAnswer {
    const { method, path } = request;
    const route = (m: string, pattern: RegExp) => (method === m ? pattern.exec(path) : null);
    if (route('GET', /^\/users\/@me$/)) return { status: 200, body: userPayload(bot) };
    const getChannel = route('GET', /^\/channels\/(\d+)$/);
    if (getChannel) {
      const channel = channels.get(getChannel[1] ?? '');
      return channel
        ? { status: 200, body: channelPayload(channel, chaosDiscord.guildId) }
        : notFound('Channel', 10003);
    }
    const list = route('GET', /^\/channels\/(\d+)\/messages$/);
    if (list) {
      const after = BigInt(request.query.get('after') ?? '0');
      const limit = Math.min(100, Number(request.query.get('limit') ?? 50));
      const page = (messages.get(list[1] ?? '') ?? [])
        .filter((m) => BigInt(String(m['id'])) > after)
        .slice(0, limit)
        .reverse()
        .map(({ nonce: _nonce, ...m }) => m);
      return { status: 200, body: page };
    }
    const create = route('POST', /^\/channels\/(\d+)\/messages$/);
    if (create) return createMessage(create[1] ?? '', request);
    const edit = route('PATCH', /^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (edit) {
      const [, channelId = '', messageId = ''] = edit;
      const list = messages.get(channelId) ?? [];
      const old = list.find((m) => m['id'] === messageId);
      if (!old) return notFound('Message', 10008);
      const edited = { ...old, ...request.body, edited_timestamp: new Date(clock.now()).toISOString() };
      messages.set(
        channelId,
        list.map((m) => (m === old ? edited : m)),
      );
      options.timeline.record(clock.now(), judged(channelId), `discord/${messageId}`, edited);
      return { status: 200, body: edited };
    }
    const remove = route('DELETE', /^\/channels\/(\d+)\/messages\/(\d+)$/);
    if (remove) {
      const [, channelId = '', messageId = ''] = remove;
      const list = messages.get(channelId) ?? [];
      if (!list.some((m) => m['id'] === messageId)) return notFound('Message', 10008);
      messages.set(
        channelId,
        list.filter((m) => m['id'] !== messageId),
      );
      options.timeline.remove(clock.now(), `discord/${messageId}`);
      return { status: 204, body: null };
    }
    const thread = route('POST', /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/);
    if (thread) {
      const [, parentId = '', messageId = ''] = thread;
      if (!channels.has(parentId)) return notFound('Channel', 10003);
      if (!(messages.get(parentId) ?? []).some((m) => m['id'] === messageId))
        return notFound('Message', 10008);
      if (channels.has(messageId)) {
        return {
          status: 400,
          body: { message: 'A thread has already been created for this message', code: 160004 },
        };
      }
      const opened: FakeChannel = {
        id: messageId,
        name: String(request.body['name'] ?? ''),
        type: 11,
        parentId,
      };
      channels.set(messageId, opened);
      return { status: 201, body: channelPayload(opened, chaosDiscord.guildId) };
    }
    return { status: 404, body: { message: '404: Not Found', code: 0 } };
  }

  return {
    call,
    setCanSend(channelId, canSend) {
      const channel = channels.get(channelId);
      if (!channel) return;
      channels.set(channelId, {
        ...channel,
        permissionOverwrites: canSend ? [] : [{ id: bot.id, type: 1, deny: sendMessages }],
      });
    },
    channelMessages: messages,
    onLanded(listener) {
      landedListeners.push(listener);
    },
  };
}
