import { webApi } from '@slack/bolt';
import type { ChannelAccess } from '../../../core/index.js';
import type { ChannelPoster } from '../../../delivery/index.js';
import { ChannelUnavailableError } from '../../../delivery/index.js';
import type { Logger } from '../../../domain/logger.js';
import type { Clock } from '../../../lib/clock.js';
import { createSlackPoster, createSlackPostingClient } from '../create-slack-poster.js';
import { createSlackChannelAccess } from '../slack-channel-access.js';
import { createSlackUserLookup, type SlackUserLookup } from '../slack-user-lookup.js';
import type { EncryptedInstallationStore } from './installation-store.js';

export interface TeamClients {
  /** Posts with the bot token of the channel's workspace. */
  readonly poster: ChannelPoster;
  /** users.info with the token of the workspace the command came from. */
  readonly users: SlackUserLookup;
  /** For /subscribe, with the token of the channel's workspace. */
  readonly channelAccess: ChannelAccess;
  /** Drops what is kept for a workspace (after an uninstall). */
  forget(teamId: string): void;
}

/**
 * One Web API client per installed workspace, built from its stored installation.
 * The token is read from the store on every use (one store read and one AES-GCM
 * decryption per notice or command, no Slack request): a reinstall or an uninstall
 * handled by another replica takes effect here at once. The client, and with it
 * the users.info cache, is kept while the token stays the same.
 */
export function createTeamClients(options: {
  readonly installations: EncryptedInstallationStore;
  readonly clientOptions: webApi.WebClientOptions;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly userCacheTtlMs?: number;
}): TeamClients {
  const teams = new Map<
    string,
    {
      readonly token: string;
      readonly poster: ChannelPoster;
      readonly users: SlackUserLookup;
      readonly channelAccess: ChannelAccess;
    }
  >();

  async function forTeam(teamId: string) {
    const token = await options.installations.botToken(teamId);
    if (!token) {
      teams.delete(teamId);
      return undefined;
    }
    const known = teams.get(teamId);
    if (known?.token === token) return known;
    const client = new webApi.WebClient(token, options.clientOptions);
    const entry = {
      token,
      channelAccess: createSlackChannelAccess(client, options.logger),
      // Notices go through a client that never retries on its own (a retried post is a duplicate).
      poster: createSlackPoster({
        client: createSlackPostingClient(token, {
          ...(options.clientOptions?.slackApiUrl ? { slackApiUrl: options.clientOptions.slackApiUrl } : {}),
        }),
        clock: options.clock,
      }),
      users: createSlackUserLookup({
        client,
        clock: options.clock,
        logger: options.logger,
        ...(options.userCacheTtlMs !== undefined ? { ttlMs: options.userCacheTtlMs } : {}),
      }),
    };
    teams.set(teamId, entry);
    return entry;
  }

  return {
    poster: {
      platform: 'slack',
      async post(channel, message, idempotencyKey) {
        const team = await forTeam(channel.workspaceId);
        // Not (or no longer) installed there: no retry can post, and the uninstall removes the subscription.
        if (!team) throw new ChannelUnavailableError(channel, 'no-access');
        await team.poster.post(channel, message, idempotencyKey);
      },
    },
    users: {
      async lookup(teamId, userId) {
        const team = await forTeam(teamId).catch((error: unknown) => {
          options.logger.warn(
            { err: error instanceof Error ? error.message : String(error), teamId },
            'Slack installation could not be read: treating the user as no workspace admin',
          );
          return undefined;
        });
        if (!team) return { displayName: undefined, isWorkspaceAdmin: false, locale: undefined };
        return team.users.lookup(teamId, userId);
      },
    },
    channelAccess: {
      async canPost(channel) {
        const team = await forTeam(channel.workspaceId);
        // Not installed in that workspace: inviting the bot there starts with installing the app.
        if (!team) return { ok: false, reason: 'not-member' };
        return team.channelAccess.canPost(channel);
      },
    },
    forget: (teamId) => void teams.delete(teamId),
  };
}
