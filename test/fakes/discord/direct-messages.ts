/**
 * The fake Discord's direct messages, as the API documents them: `POST /users/@me/channels {recipient_id}` (Create
 * DM) answers the DM channel (type 1, `recipients`), the same channel on every call for the same user; Create
 * Message in that channel posts to the user. A user made unreachable answers 50007 "Cannot send messages to this
 * user" on Create Message (DMs closed, no shared server), as Discord does.
 */
import { type FakeUser, messagePayload, snowflake } from './fake-discord-payloads.js';

export interface DirectMessages {
  /** Create DM's answer for the user (opens the channel once). */
  open(recipientId: string, now: number): Record<string, unknown>;
  /** The DM channel's recipient, or undefined when `channelId` is no DM channel of the fake. */
  recipientOf(channelId: string): string | undefined;
  /** Create Message in a DM channel: the message, or Discord's 50007 error body for an unreachable user. */
  post(
    channelId: string,
    body: Record<string, unknown>,
    author: FakeUser,
    now: number,
  ): { readonly status: number; readonly body: Record<string, unknown> };
  /** The bot's messages to a user, oldest first. */
  messagesTo(userId: string): readonly Record<string, unknown>[];
  /** Makes the user unreachable (true) or reachable again. */
  setUnreachable(userId: string, unreachable: boolean): void;
}

export const cannotSendToUser = { message: 'Cannot send messages to this user', code: 50007 } as const;

export function createDirectMessages(): DirectMessages {
  const channelOfUser = new Map<string, string>();
  const userOfChannel = new Map<string, string>();
  const sent = new Map<string, Record<string, unknown>[]>();
  const unreachable = new Set<string>();
  return {
    open(recipientId, now) {
      let id = channelOfUser.get(recipientId);
      if (!id) {
        id = snowflake(now);
        channelOfUser.set(recipientId, id);
        userOfChannel.set(id, recipientId);
      }
      return {
        id,
        type: 1,
        last_message_id: null,
        recipients: [{ id: recipientId, username: `user-${recipientId}`, global_name: null }],
      };
    },
    recipientOf: (channelId) => userOfChannel.get(channelId),
    post(channelId, body, author, now) {
      const user = userOfChannel.get(channelId) ?? '';
      if (unreachable.has(user)) return { status: 403, body: { ...cannotSendToUser } };
      const message = messagePayload({ id: snowflake(now), channelId, author, body, attachments: [] });
      sent.set(user, [...(sent.get(user) ?? []), message]);
      return { status: 200, body: message };
    },
    messagesTo: (userId) => sent.get(userId) ?? [],
    setUnreachable(userId, value) {
      if (value) unreachable.add(userId);
      else unreachable.delete(userId);
    },
  };
}
