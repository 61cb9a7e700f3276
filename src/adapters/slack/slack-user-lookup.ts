import type { webApi } from '@slack/bolt';
import type { Logger } from '../../domain/logger.js';
import type { Clock } from '../../lib/clock.js';

/** What fundbot needs to know about the user behind a slash command. */
export interface SlackUserFacts {
  readonly displayName: string | undefined;
  /** Workspace admin or owner, of THIS workspace. */
  readonly isWorkspaceAdmin: boolean;
  /** Slack's locale tag, e.g. 'de-DE' (users.info with include_locale). */
  readonly locale: string | undefined;
}

export interface SlackUserLookup {
  /** Never throws: when Slack cannot be asked, the user is no admin (the configured list still applies). */
  lookup(teamId: string, userId: string): Promise<SlackUserFacts>;
}

interface UsersInfoUser {
  readonly team_id?: string;
  readonly is_admin?: boolean;
  readonly is_owner?: boolean;
  readonly is_restricted?: boolean;
  readonly is_ultra_restricted?: boolean;
  readonly deleted?: boolean;
  readonly locale?: string;
  readonly name?: string;
  readonly real_name?: string;
  readonly profile?: { readonly display_name?: string; readonly real_name?: string };
}

/**
 * users.info, cached briefly per (team, user): admin rights change rarely, and a
 * burst of commands must not spend the method's rate limit. A short TTL (default
 * one minute) keeps a revoked admin from keeping the rights for long; the core checks
 * `canAdminister` again anyway.
 *
 * Admin only for the workspace the command came from: in a Slack Connect channel a
 * user of another organisation can be admin of THEIR workspace, which must not make
 * them admin of ours. Guests and deactivated users are never admins.
 */
/** How long a users.info answer is reused (see above). */
const userFactsTtlMs = 60_000;

export function createSlackUserLookup(options: {
  readonly client: webApi.WebClient;
  readonly clock: Clock;
  readonly logger: Logger;
}): SlackUserLookup {
  const cache = new Map<string, { readonly at: number; readonly facts: SlackUserFacts }>();

  return {
    async lookup(teamId, userId) {
      const key = `${teamId}:${userId}`;
      const now = options.clock.now();
      const hit = cache.get(key);
      if (hit && now - hit.at < userFactsTtlMs) return hit.facts;
      try {
        const result = await options.client.users.info({ user: userId, include_locale: true });
        const user = (result.user ?? {}) as UsersInfoUser;
        const sameWorkspace = user.team_id === teamId;
        const facts: SlackUserFacts = {
          displayName: user.profile?.display_name || user.profile?.real_name || user.real_name || user.name,
          isWorkspaceAdmin:
            sameWorkspace &&
            !user.deleted &&
            !user.is_restricted &&
            !user.is_ultra_restricted &&
            (user.is_admin === true || user.is_owner === true),
          locale: user.locale,
        };
        // Bounded: drop the oldest entries rather than grow with every user ever seen.
        if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
        cache.set(key, { at: now, facts });
        return facts;
      } catch (error) {
        options.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'Slack users.info failed: treating the user as no workspace admin (slack.admins in the config still applies); check the users:read scope',
        );
        return { displayName: undefined, isWorkspaceAdmin: false, locale: undefined };
      }
    },
  };
}
