import { DiscordAPIError, Routes } from 'discord.js';
import type { NeutralMessage } from '../../core/index.js';
import { DirectMessageRefusedError, type DirectMessenger } from '../../delivery/index.js';
import { closeDiscordRest, createDiscordPostingRest } from './discord-rest.js';
import { restMessage } from './http-interactions/rest-message.js';

/**
 * Discord's answers that say a member cannot be written to for good: 50007 "Cannot send messages to this user"
 * (DMs closed, no shared server, blocked), 10013 "Unknown User", 50278 "Cannot send a message to this user".
 */
const refusedCodes = new Set([50007, 10013, 50278]);

/**
 * The reward watch's direct message on Discord over REST, so it works in every mode (gateway, HTTP interactions,
 * replicas): `POST /users/@me/channels {recipient_id}` opens (or returns) the DM channel, then one message is
 * posted there, rendered and escaped as a notice (no mention can ping).
 */
export function createDiscordDirectMessenger(options: {
  readonly token: string;
  readonly apiUrl?: string | undefined;
  readonly timeoutMs?: number;
}): DirectMessenger & { close(): Promise<void> } {
  const rest = createDiscordPostingRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  return {
    platform: 'discord',
    async sendDirect(_workspace, userId: string, message: NeutralMessage) {
      try {
        const channel = (await rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as {
          id: string;
        };
        const { body, files } = restMessage(message);
        await rest.post(Routes.channelMessages(channel.id), { body, files });
      } catch (error) {
        if (
          error instanceof DiscordAPIError &&
          typeof error.code === 'number' &&
          refusedCodes.has(error.code)
        ) {
          throw new DirectMessageRefusedError(`discord ${error.code}`);
        }
        throw error;
      }
    },
    close: () => closeDiscordRest(rest),
  };
}
