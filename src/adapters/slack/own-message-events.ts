import type { App } from '@slack/bolt';
import type { Sighting } from '../../delivery/index.js';
import { deliveryMark } from './slack-look.js';

/**
 * The `message` events Slack sends an app subscribed to `message.channels` and `message.groups` (scopes
 * `channels:history`, `groups:history`, which fundbot has for its looks), the bot's own messages included:
 * each of fundbot's notices seen there is handed to the delivery pipeline as a sighting (witness.ts). A
 * sighting settles a doubt about that post at once, without spending the look budget (one
 * conversations.history call a minute per workspace for apps outside the Marketplace), and shows a copy
 * Slack landed late, after the post was made again, so it is removed.
 *
 * Bolt drops an app's own events by default (`ignoreSelf`): the App is built with `ignoreSelf: false`, and
 * this listener takes only messages by the bot (its `bot_id` or bot user) that carry a fundbot delivery key
 * (metadata, or the first block's id: see deliveryBlockId). Other listeners are not affected: they handle
 * people's actions, and `member_joined_channel` already checks whose join it is. Costs no request.
 */
/** A Slack `message` event as the witness reads it (a new message: its subtype, where, by whom, its key). */
export interface SlackMessageEvent {
  readonly subtype?: string;
  readonly channel?: string;
  readonly user?: string;
  readonly bot_id?: string;
  readonly ts?: string;
  readonly metadata?: unknown;
  readonly blocks?: readonly unknown[];
}

/**
 * The sighting one `message` event makes, or undefined when it is not a new message of ours that carries a
 * delivery key. `who`: the bot's ids (Bolt's context) and the event's workspace. The chaos world's Slack model
 * feeds its events through this too (test/chaos/world/own-message-events.ts).
 */
export function ownMessageSighting(
  message: SlackMessageEvent,
  who: { readonly botId?: string; readonly botUserId?: string; readonly teamId?: string },
): Sighting | undefined {
  // A new message (a bot's, a reply, a file share, a reply also sent to the channel); not edits or deletions.
  const kinds = [undefined, 'bot_message', 'file_share', 'thread_broadcast'];
  if (!kinds.includes(message.subtype) || !message.channel || !message.ts) return undefined;
  const mine =
    (who.botId !== undefined && message.bot_id === who.botId) ||
    (who.botUserId !== undefined && message.user === who.botUserId);
  const mark = mine ? deliveryMark(message) : undefined;
  if (mark === undefined || !who.teamId) return undefined;
  return {
    channel: { platform: 'slack', workspaceId: who.teamId, channelId: message.channel },
    key: mark.key,
    messageId: message.ts,
    at: Number(message.ts) * 1000,
    ...(mark.attemptAt !== undefined ? { attemptAt: mark.attemptAt } : {}),
  };
}

export function listenForOwnMessages(app: App, onOwnMessage: (sighting: Sighting) => void): void {
  app.event('message', async ({ event, context, body }) => {
    const teamId = (body as { team_id?: string }).team_id ?? context.teamId;
    const sighting = ownMessageSighting(event as SlackMessageEvent, {
      ...(context.botId !== undefined ? { botId: context.botId } : {}),
      ...(context.botUserId !== undefined ? { botUserId: context.botUserId } : {}),
      ...(teamId !== undefined ? { teamId } : {}),
    });
    if (sighting) onOwnMessage(sighting);
  });
}
