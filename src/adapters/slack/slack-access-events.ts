import type { App } from '@slack/bolt';
import type { ChannelRef } from '../../core/index.js';

/**
 * Tells the delivery pipeline when fundbot may be able to post in a channel again: the
 * bot joined it (`member_joined_channel` for the bot's own user), or it was unarchived
 * (`channel_unarchive`, `group_unarchive` for a private one). The pipeline re-checks that
 * channel at once instead of at its next timed re-check. Costs no request; each event is
 * one conversations.info by the pipeline, and only for a channel it holds notices for.
 */
export function listenForAccessChanges(app: App, onAccessChanged: (channel: ChannelRef) => void): void {
  const changed = (teamId: string | undefined, channelId: string | undefined) => {
    if (teamId && channelId) onAccessChanged({ platform: 'slack', workspaceId: teamId, channelId });
  };
  app.event('member_joined_channel', async ({ event, context, body }) => {
    if (event.user === context.botUserId) changed(body.team_id, event.channel);
  });
  app.event('channel_unarchive', async ({ event, body }) => changed(body.team_id, event.channel));
  app.event('group_unarchive', async ({ event, body }) => changed(body.team_id, event.channel));
}
