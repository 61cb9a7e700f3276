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
export function listenForOwnMessages(client: Client, onOwnMessage: (sighting: Sighting) => void): void {
  client.on(Events.MessageCreate, (message) => {
    if (!message.inGuild() || message.author.id !== client.user?.id) return;
    if (message.nonce === null || message.nonce === undefined) return;
    const { channel } = message;
    const inThread = channel.isThread() && channel.parentId !== null;
    onOwnMessage({
      channel: {
        platform: 'discord',
        workspaceId: message.guildId,
        channelId: inThread ? (channel.parentId ?? channel.id) : channel.id,
      },
      mark: String(message.nonce),
      messageId: inThread ? `${channel.id}/${message.id}` : message.id,
      at: message.createdTimestamp,
    });
  });
}
