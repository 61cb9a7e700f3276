import { type Client, Events } from 'discord.js';
import type { ChannelRef } from '../../core/index.js';
import type { DiscordAdapterLogger } from './logger.js';

/** Removes what is stored for a workspace (subscriptions, settings, connected projects); says what, by kind. */
export type ForgetWorkspace = (
  workspace: Pick<ChannelRef, 'platform' | 'workspaceId'>,
) => Promise<Record<string, number>>;

/**
 * When fundbot is removed from a Discord server (kicked, or the server deleted), what it stored
 * for that server goes, as a Slack uninstall's does (src/app/forget-workspace.ts): its channels'
 * subscriptions would otherwise be polled and held as "cannot post" for 14 days. discord.js emits
 * `guildDelete` only for a removal; a server outage is `guildUnavailable`, which keeps everything.
 * The gateway session hears it (on replicas, the lease holder's; the store is shared).
 */
export function forgetOnServerRemoval(
  client: Client,
  forget: ForgetWorkspace,
  logger: DiscordAdapterLogger,
): void {
  client.on(Events.GuildDelete, (guild) => {
    void forget({ platform: 'discord', workspaceId: guild.id }).then(
      (removed) =>
        logger.info(
          { guild: guild.id, removed },
          'fundbot was removed from a Discord server: its data is deleted',
        ),
      (error: unknown) =>
        logger.error(
          { guild: guild.id, err: error instanceof Error ? error.message : String(error) },
          'fundbot was removed from a Discord server but could not delete its data (the store failed): its subscriptions stay, their notices held as "cannot post" until they expire (14 days)',
        ),
    );
  });
}
