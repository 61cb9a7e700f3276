import { type Client, Events } from 'discord.js';
import type { Sighting } from '../../delivery/index.js';

/**
 * Discord's `MESSAGE_CREATE` for the bot's own messages (the gateway sends them with the GuildMessages intent,
 * which is not privileged; a bot always sees its own messages' content and embeds), handed to the delivery
 * pipeline as sightings (src/delivery/witness.ts) by their nonce: a post whose answer was lost is known to
 * have landed at once, and a copy Discord created late beside a repeat (after its nonce window, which is
 * short and undocumented) is removed. A reply in a thread is named as the ledger keeps it:
 * `<thread>/<message>` in the thread's parent channel. Costs no request.
 */
/** A `MESSAGE_CREATE` of the bot's as the witness reads it. */
export interface OwnMessageCreate {
  readonly guildId: string;
  readonly channelId: string;
  /** The thread's parent channel, when the message is a reply in a thread. */
  readonly threadParentId?: string;
  readonly messageId: string;
  readonly nonce?: string | number | null;
  readonly createdTimestamp: number;
}

/**
 * The sighting one of the bot's own `MESSAGE_CREATE`s makes (undefined without a nonce: not a notice). The chaos
 * world's Discord model feeds its events through this too (test/chaos/world/own-message-events.ts).
 */
export function ownMessageSighting(message: OwnMessageCreate): Sighting | undefined {
  if (message.nonce === null || message.nonce === undefined) return undefined;
  const parent = message.threadParentId;
  return {
    channel: { platform: 'discord', workspaceId: message.guildId, channelId: parent ?? message.channelId },
    mark: String(message.nonce),
    messageId: parent !== undefined ? `${message.channelId}/${message.messageId}` : message.messageId,
    at: message.createdTimestamp,
  };
}

/**
 * Hands the bot's own MESSAGE_CREATE events to `onOwnMessage`, and tells `onInterrupted` when the gateway
 * session drops (a disconnect, or a reconnect whose resume may not replay every missed event): the events of
 * that gap may never come, so their silence must not decide a doubt.
 */
export function listenForOwnMessages(
  client: Client,
  onOwnMessage: (sighting: Sighting) => void,
  onInterrupted?: () => void,
): void {
  if (onInterrupted) {
    client.on(Events.ShardDisconnect, () => onInterrupted());
    client.on(Events.ShardReconnecting, () => onInterrupted());
  }
  client.on(Events.MessageCreate, (message) => {
    if (!message.inGuild() || message.author.id !== client.user?.id) return;
    const { channel } = message;
    const parentId = channel.isThread() ? channel.parentId : null;
    const sighting = ownMessageSighting({
      guildId: message.guildId,
      channelId: channel.id,
      ...(parentId !== null ? { threadParentId: parentId } : {}),
      messageId: message.id,
      nonce: message.nonce,
      createdTimestamp: message.createdTimestamp,
    });
    if (sighting) onOwnMessage(sighting);
  });
}
