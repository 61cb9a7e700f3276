/**
 * What the fake Discord's guilds hold: their channels, the threads started through
 * the API, the messages created in each, and the nonces Create Message dedupes on.
 */
import {
  type FakeChannel,
  type FakeGuild,
  type FakePermissionOverwrite,
  isThread,
} from './fake-discord-payloads.js';
import type { ChannelFault } from './faults.js';
import { botPermissionsIn, createMessageRefusal } from './permissions.js';

export const defaultGuild: FakeGuild = {
  id: '100000000000000001',
  name: 'Fund Guild',
  channels: [{ id: '200000000000000001', name: 'campaign' }],
};

type StoredMessage = Record<string, unknown>;

export interface KnownChannel {
  readonly channel: FakeChannel;
  readonly guildId: string;
}

export interface ChannelStore {
  /** Messages created per channel, oldest first (after nonce dedupe). */
  readonly channelMessages: ReadonlyMap<string, readonly StoredMessage[]>;
  channel(channelId: string): KnownChannel | undefined;
  /** A thread becomes a channel of its own, in its parent's guild. */
  addThread(thread: FakeChannel, guildId: string): void;
  findMessage(channelId: string, messageId: string): StoredMessage | undefined;
  /** Discord's page: the `limit` messages right after `after`, newest first, without nonces. */
  messagesAfter(channelId: string, after: bigint, limit: number): StoredMessage[];
  addMessage(channelId: string, message: StoredMessage): void;
  /** Edit Message's effect: the fields sent replace the message's, which stays in its place; undefined when not found. */
  editMessage(channelId: string, messageId: string, fields: StoredMessage): StoredMessage | undefined;
  /** Delete Message's effect: gone from the channel, kept in `deleted` with when (epoch ms). */
  deleteMessage(channelId: string, messageId: string): void;
  readonly deleted: readonly {
    readonly channelId: string;
    readonly message: StoredMessage;
    readonly at: number;
  }[];
  /** Called with every message as it is created (the gateway's MESSAGE_CREATE). */
  onMessage(listener: (channelId: string, message: StoredMessage) => void): void;
  /** The message an earlier Create Message with this nonce key made, while the window lasts. */
  messageForNonce(nonceKey: string): StoredMessage | undefined;
  rememberNonce(nonceKey: string, message: StoredMessage): void;
  setNonceWindowMs(ms: number): void;
  /** Replaces a channel's permission overwrites (an admin editing it); the channel as it is now. */
  setOverwrites(channelId: string, overwrites: readonly FakePermissionOverwrite[]): KnownChannel | undefined;
  /** The guilds with their channels as they are now (what a new gateway session is told). */
  guildsNow(): FakeGuild[];
  /** Discord's refusal of a Create Message by the bot in the channel (its permissions), if any. */
  createRefusal(channelId: string, botUserId: string): ChannelFault | undefined;
}

/** `nonceWindowMs`: how long a nonce dedupes (Infinity: forever, 0: never), on the clock `now`. */
export function createChannelStore(
  guilds: readonly FakeGuild[],
  nonceWindowMs: number,
  now: () => number = Date.now,
): ChannelStore {
  const channelMessages = new Map<string, StoredMessage[]>();
  const deleted: { channelId: string; message: StoredMessage; at: number }[] = [];
  const listeners: ((channelId: string, message: StoredMessage) => void)[] = [];
  const nonces = new Map<string, { message: StoredMessage; at: number }>();
  let windowMs = nonceWindowMs;

  // Threads started through the API join the guilds' channels here.
  const channelsById = new Map<string, KnownChannel>(
    guilds.flatMap((g) => g.channels.map((c) => [c.id, { channel: c, guildId: g.id }] as const)),
  );

  const guildsById = new Map(guilds.map((g) => [g.id, g]));

  return {
    channelMessages,
    channel: (channelId) => channelsById.get(channelId),
    addThread: (thread, guildId) => {
      channelsById.set(thread.id, { channel: thread, guildId });
    },
    findMessage: (channelId, messageId) =>
      (channelMessages.get(channelId) ?? []).find((m) => m['id'] === messageId),
    messagesAfter: (channelId, after, limit) =>
      (channelMessages.get(channelId) ?? [])
        .filter((m) => BigInt(String(m['id'])) > after)
        .slice(0, limit)
        .reverse()
        .map(({ nonce: _nonce, ...m }) => m),
    addMessage: (channelId, message) => {
      channelMessages.set(channelId, [...(channelMessages.get(channelId) ?? []), message]);
      for (const listener of listeners) listener(channelId, message);
    },
    editMessage: (channelId, messageId, fields) => {
      const list = channelMessages.get(channelId) ?? [];
      const old = list.find((m) => m['id'] === messageId);
      if (!old) return undefined;
      const edited = { ...old, ...fields, id: old['id'], edited_timestamp: new Date(now()).toISOString() };
      channelMessages.set(
        channelId,
        list.map((m) => (m === old ? edited : m)),
      );
      return edited;
    },
    deleteMessage: (channelId, messageId) => {
      const list = channelMessages.get(channelId) ?? [];
      const gone = list.find((m) => m['id'] === messageId);
      if (!gone) return;
      channelMessages.set(
        channelId,
        list.filter((m) => m !== gone),
      );
      deleted.push({ channelId, message: gone, at: now() });
    },
    deleted,
    onMessage: (listener) => {
      listeners.push(listener);
    },
    messageForNonce: (nonceKey) => {
      const existing = nonces.get(nonceKey);
      return existing && now() - existing.at < windowMs ? existing.message : undefined;
    },
    rememberNonce: (nonceKey, message) => {
      nonces.set(nonceKey, { message, at: now() });
    },
    setNonceWindowMs: (ms) => {
      windowMs = ms;
    },
    setOverwrites: (channelId, overwrites) => {
      const known = channelsById.get(channelId);
      if (!known) return undefined;
      const changed = { ...known, channel: { ...known.channel, permissionOverwrites: overwrites } };
      channelsById.set(channelId, changed);
      return changed;
    },
    guildsNow: () =>
      guilds.map((g) => ({ ...g, channels: g.channels.map((c) => channelsById.get(c.id)?.channel ?? c) })),
    createRefusal: (channelId, botUserId) => {
      const known = channelsById.get(channelId);
      const guild = known ? guildsById.get(known.guildId) : undefined;
      if (!known || !guild) return undefined;
      const parent = known.channel.parentId ? channelsById.get(known.channel.parentId)?.channel : undefined;
      const permissions = botPermissionsIn(guild, known.channel, botUserId, parent);
      return createMessageRefusal(permissions, isThread(known.channel));
    },
  };
}
