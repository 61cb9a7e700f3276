/**
 * The bot's permissions in a channel of the fake Discord, computed as Discord does:
 * the @everyone role and the bot's role, Administrator grants all, then the channel's
 * overwrites (@everyone, the bot's role, the bot itself) take away and add. A thread
 * follows its parent channel's overwrites. Create Message answers with Discord's
 * errors from it, so a test revoking a permission sees what a real server does.
 */
import {
  botRoleId,
  defaultBotPermissions,
  type FakeChannel,
  type FakeGuild,
  isThread,
} from './fake-discord-payloads.js';
import type { ChannelFault } from './faults.js';

const administrator = 1n << 3n;
const viewChannel = 1n << 10n;
const sendMessages = 1n << 11n;
const sendMessagesInThreads = 1n << 38n;
const all = (1n << 53n) - 1n;

/** The bot's permissions in `channel` (a thread: `parent` holds the overwrites). */
export function botPermissionsIn(
  guild: FakeGuild,
  channel: FakeChannel,
  botUserId: string,
  parent?: FakeChannel,
): bigint {
  const botRole = botRoleId(guild);
  let permissions = guild.botPermissions ?? defaultBotPermissions;
  if ((permissions & administrator) !== 0n) return all;
  const overwrites = (isThread(channel) ? parent : channel)?.permissionOverwrites ?? [];
  const apply = (applies: (o: (typeof overwrites)[number]) => boolean) => {
    for (const o of overwrites.filter(applies)) {
      permissions = (permissions & ~(o.deny ?? 0n)) | (o.allow ?? 0n);
    }
  };
  apply((o) => o.type === 0 && o.id === guild.id);
  apply((o) => o.type === 0 && o.id === botRole);
  apply((o) => o.type === 1 && o.id === botUserId);
  return permissions;
}

/** Discord's answer to a Create Message the bot may not make there, or undefined when it may. */
export function createMessageRefusal(permissions: bigint, inThread: boolean): ChannelFault | undefined {
  if ((permissions & viewChannel) === 0n) return { status: 403, code: 50001, message: 'Missing Access' };
  const send = inThread ? sendMessagesInThreads : sendMessages;
  if ((permissions & send) === 0n) return { status: 403, code: 50013, message: 'Missing Permissions' };
  return undefined;
}
