import type { ChannelRef } from './ports.js';

/**
 * The address of a message fundbot posted, built from ids the platform gave it (never from user text), for the
 * delivery trace's links. Discord: `https://discord.com/channels/<guild>/<channel>/<message>`, where the
 * message id of a reply in a thread is `<thread id>/<message id>` (the poster's form). Slack: the archive
 * permalink `https://slack.com/archives/<channel>/p<ts without its dot>`, which Slack opens in the member's
 * workspace. Anything else (the console, an id of an unexpected form): none.
 */
export function messageUrl(channel: ChannelRef, messageId: string): string | undefined {
  if (channel.platform === 'discord') {
    const [where, id] = messageId.includes('/') ? messageId.split('/') : [channel.channelId, messageId];
    const snowflake = /^\d{1,25}$/;
    if (![channel.workspaceId, where, id].every((part) => part !== undefined && snowflake.test(part)))
      return undefined;
    return `https://discord.com/channels/${channel.workspaceId}/${where}/${id}`;
  }
  if (channel.platform === 'slack') {
    if (!/^\d{1,12}\.\d{1,9}$/.test(messageId) || !/^[A-Z0-9]{1,30}$/.test(channel.channelId))
      return undefined;
    return `https://slack.com/archives/${channel.channelId}/p${messageId.replace('.', '')}`;
  }
  return undefined;
}
