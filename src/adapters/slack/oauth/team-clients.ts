import { webApi } from '@slack/bolt';
import type { ChannelAccess, ChannelRef } from '../../../core/index.js';
import type { ChannelPoster, DirectMessenger } from '../../../delivery/index.js';
import { ChannelUnavailableError, DirectMessageRefusedError } from '../../../delivery/index.js';
import type { Logger } from '../../../domain/logger.js';
import type { Clock } from '../../../lib/clock.js';
import { createSlackPoster, createSlackPostingClient, defaultPostTimeoutMs } from '../create-slack-poster.js';
import { createSlackChannelAccess } from '../slack-channel-access.js';
import { createSlackDirectMessenger } from '../slack-direct-messages.js';
import { createSlackUserLookup, type SlackUserLookup } from '../slack-user-lookup.js';
import type { EncryptedInstallationStore } from './installation-store.js';

export interface TeamClients {
  /** Posts with the bot token of the channel's workspace. */
  readonly poster: ChannelPoster;
  /** users.info with the token of the workspace the command came from. */
  readonly users: SlackUserLookup;
  /** For /subscribe, with the token of the channel's workspace. */
  readonly channelAccess: ChannelAccess;
  /** The reward watch's direct messages, with the token of the member's workspace. */
  readonly directMessenger: DirectMessenger;
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
  /** Minimum time between two history looks per workspace (default 60 s). */
  readonly historyIntervalMs?: number;
}): TeamClients {
  const teams = new Map<
    string,
    {
      readonly token: string;
      readonly poster: ChannelPoster;
      readonly users: SlackUserLookup;
      readonly channelAccess: ChannelAccess;
      readonly directMessenger: DirectMessenger;
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
      directMessenger: createSlackDirectMessenger(client),
      // Notices go through a client that never retries on its own (a retried post is a duplicate).
      poster: createSlackPoster({
        client: createSlackPostingClient(token, {
          ...(options.clientOptions?.slackApiUrl ? { slackApiUrl: options.clientOptions.slackApiUrl } : {}),
        }),
        clock: options.clock,
        ...(options.historyIntervalMs !== undefined ? { historyIntervalMs: options.historyIntervalMs } : {}),
      }),
      users: createSlackUserLookup({
        client,
        clock: options.clock,
        logger: options.logger,
      }),
    };
    teams.set(teamId, entry);
    return entry;
  }

  return {
    poster: teamPoster(async (channel) => {
      const team = await forTeam(channel.workspaceId);
      // Not (or no longer) installed there: held until it is installed again, and the uninstall removes the subscription.
      if (!team) throw new ChannelUnavailableError(channel, 'token-revoked');
      return team.poster;
    }, options.historyIntervalMs),
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
    directMessenger: {
      platform: 'slack',
      async sendDirect(workspace, userId, message) {
        const team = await forTeam(workspace.workspaceId);
        // Uninstalled: its watches go with the uninstall; one left in flight is dropped, not retried.
        if (!team) throw new DirectMessageRefusedError('fundbot is no longer installed in that workspace');
        return team.directMessenger.sendDirect(workspace, userId, message);
      },
    },
    forget: (teamId) => void teams.delete(teamId),
  };
}

/**
 * The poster of every installed workspace behind one: each call goes to the poster of
 * the channel's workspace (posts, edits, threads and looks alike), so corrections, the
 * daily thread and doubt resolution work in OAuth mode as with one token.
 */
function teamPoster(
  posterOf: (channel: ChannelRef) => Promise<ChannelPoster>,
  historyIntervalMs = 60_000,
): ChannelPoster {
  return {
    platform: 'slack',
    threads: 'replies',
    post: async (channel, message, key, thread, attemptAt) =>
      (await posterOf(channel)).post(channel, message, key, thread, attemptAt),
    edit: async (channel, messageId, message) =>
      (await posterOf(channel)).edit?.(channel, messageId, message),
    doubt: {
      settleMs: defaultPostTimeoutMs + 5_000,
      repeatSafeMs: 0,
      lookBudget: (channel, thread) => ({
        scope: `slack:${channel.workspaceId}:${thread ? 'replies' : 'history'}`,
        intervalMs: historyIntervalMs,
      }),
      async look(channel, request, thread) {
        const poster = await posterOf(channel);
        if (!poster.doubt) throw new Error('the workspace poster cannot look');
        return poster.doubt.look(channel, request, thread);
      },
    },
  };
}
