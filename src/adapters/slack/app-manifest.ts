import { type CommandDefinition, slackCommand } from '../../domain/command-definitions.js';
import { clip } from './slack-text.js';

/**
 * The bot scopes fundbot needs, and nothing more:
 * - `commands`: the slash commands;
 * - `chat:write`: notices and the digest in channels the bot was invited to (no
 *   `chat:write.public`: a workspace decides where fundbot speaks by inviting it);
 * - `files:write`: the digest's PNG chart (files.uploadV2);
 * - `users:read`: users.info, to tell workspace admins/owners (who may subscribe and
 *   set the language) and the user's locale;
 * - `channels:history`, `groups:history`: conversations.history in public and private
 *   channels the bot is in, read ONLY to resolve a notice delivery in doubt (did the
 *   post whose answer was lost land?), never otherwise; the same scopes let Slack send the
 *   `message.channels` / `message.groups` events, of which fundbot reads only its own
 *   notices (slackOwnMessageEvents).
 * - `channels:read`, `groups:read`: conversations.info on /fundbot subscribe, to check the
 *   bot is a member of the (public or private) channel before subscribing it.
 * - `im:write`: conversations.open, ONLY for the one direct message a member asked for with
 *   `/fundbot watch reward <id>` (issue 32, item 3c); fundbot never reads direct messages.
 * Socket Mode additionally needs an app-level token with `connections:write`; that is
 * created under Basic Information → App-Level Tokens, not in the manifest.
 */
export const slackBotScopes = [
  'commands',
  'chat:write',
  'files:write',
  'users:read',
  'channels:history',
  'groups:history',
  'channels:read',
  'groups:read',
  'im:write',
] as const;

export interface SlackManifestOptions {
  /** HTTP mode: the public base URL (e.g. https://bot.example.com); commands then go to `<base>/slack/events`. Omitted: Socket Mode. */
  readonly httpBaseUrl?: string;
  readonly appName?: string;
  /**
   * Many workspaces (needs `httpBaseUrl`): adds the OAuth redirect URL and the
   * `app_uninstalled` / `tokens_revoked` events, which tell fundbot to forget a workspace.
   */
  readonly oauth?: boolean;
}

export interface SlackSlashCommandManifest {
  readonly command: string;
  readonly description: string;
  readonly usage_hint?: string;
  readonly should_escape: boolean;
  readonly url?: string;
}

/** The subset of Slack's app manifest (JSON, `_metadata` 1.1) fundbot fills in. */
export interface SlackAppManifest {
  readonly _metadata: { readonly major_version: 1; readonly minor_version: 1 };
  readonly display_information: {
    readonly name: string;
    readonly description: string;
    readonly long_description: string;
    readonly background_color: string;
  };
  readonly features: {
    readonly bot_user: { readonly display_name: string; readonly always_online: boolean };
    readonly slash_commands: readonly SlackSlashCommandManifest[];
    /** The App Home tab (hosted fundbot's overview). */
    readonly app_home?: { readonly home_tab_enabled: boolean; readonly messages_tab_enabled: boolean };
  };
  readonly oauth_config: {
    readonly scopes: { readonly bot: readonly string[] };
    readonly redirect_urls?: readonly string[];
  };
  readonly settings: {
    readonly event_subscriptions?: { readonly request_url?: string; readonly bot_events: readonly string[] };
    /** The connect form (a modal) and the App Home's buttons post here. */
    readonly interactivity?: { readonly is_enabled: true; readonly request_url?: string };
    readonly org_deploy_enabled: false;
    readonly socket_mode_enabled: boolean;
    readonly token_rotation_enabled: false;
  };
}

/** Slack's documented limits for manifest fields. */
const limits = { name: 35, description: 140, commandDescription: 2000, usageHint: 1000 } as const;

/**
 * Builds the Slack app manifest from the command definitions (pure). Paste the
 * JSON into api.slack.com/apps → Create New App → From an app manifest.
 *
 * It declares ONE slash command, `/fundbot`, whose usage hint lists the
 * definitions as subcommands (`/fundbot funding`, `/fundbot subscribe …`): Slack
 * shares one command namespace among all apps of a workspace.
 */
export function buildSlackAppManifest(
  definitions: readonly CommandDefinition[],
  options: SlackManifestOptions = {},
): SlackAppManifest {
  const name = clip(options.appName ?? 'fundbot', limits.name);
  const requestUrl = options.httpBaseUrl ? publicUrl(options.httpBaseUrl, 'slack/events') : undefined;
  if (options.oauth && !requestUrl) {
    throw new Error(
      '--oauth needs --http <public https URL>: Slack redirects installs and sends events there',
    );
  }
  const oauth = options.oauth && requestUrl;
  return {
    _metadata: { major_version: 1, minor_version: 1 },
    display_information: {
      name,
      description: clip(
        'Crowdfunding campaign notices, /fundbot funding and a daily digest for your team',
        limits.description,
      ),
      long_description:
        'fundbot watches a crowdfunding project for you: new supporters, wall posts, blog posts, ' +
        'milestones and sold-out rewards appear in the channels you subscribe, and a daily digest ' +
        'with a chart sums up the day. /fundbot funding, /fundbot rewards, /fundbot supporters and more ' +
        'answer from the bot’s cache, so the team sees where the campaign stands without leaving Slack. ' +
        'Only public data reaches a channel: never orders, addresses or supporter-only posts.',
      background_color: '#1d4e89',
    },
    features: {
      bot_user: { display_name: name, always_online: true },
      slash_commands: [
        {
          command: `/${slackCommand.name}`,
          description: clip(slackCommand.description.en, limits.commandDescription),
          usage_hint: clip(definitions.map((definition) => definition.name).join(' | '), limits.usageHint),
          // fundbot reads the text as plain words; Slack's escaping of mentions would only add noise.
          should_escape: false,
          ...(requestUrl ? { url: requestUrl } : {}),
        },
      ],
      // Hosted fundbot: the App Home shows the workspace's projects, funding, channels and health.
      ...(oauth ? { app_home: { home_tab_enabled: true, messages_tab_enabled: true } } : {}),
    },
    oauth_config: {
      scopes: { bot: [...slackBotScopes] },
      ...(oauth ? { redirect_urls: [publicUrl(options.httpBaseUrl ?? '', 'slack/oauth_redirect')] } : {}),
    },
    settings: {
      event_subscriptions: {
        ...(requestUrl ? { request_url: requestUrl } : {}),
        // The bot was invited back or a channel unarchived: held notices go out at once (see slackAccessEvents).
        bot_events: [
          ...slackAccessEvents,
          ...slackOwnMessageEvents,
          ...(oauth ? ['app_uninstalled', 'tokens_revoked', 'app_home_opened'] : []),
        ],
      },
      // The connect form (views.open) and the App Home buttons answer through interactivity.
      ...(oauth
        ? { interactivity: { is_enabled: true as const, ...(requestUrl ? { request_url: requestUrl } : {}) } }
        : {}),
      org_deploy_enabled: false,
      socket_mode_enabled: requestUrl === undefined,
      token_rotation_enabled: false,
    },
  };
}

/**
 * Events after which fundbot may be able to post in a channel it could not: it joined
 * the channel, or the channel was unarchived. Each re-checks that channel at once
 * (conversations.info), so the notices held for it go out as a catch-up.
 */
export const slackAccessEvents = ['member_joined_channel', 'channel_unarchive', 'group_unarchive'] as const;

/**
 * The channels' message events: Slack shows fundbot its own notices as they land, which settles a delivery in
 * doubt without spending the look budget and shows a copy Slack landed late, which is then removed
 * (src/adapters/slack/own-message-events.ts). Every other message in those channels is dropped unread.
 */
export const slackOwnMessageEvents = ['message.channels', 'message.groups'] as const;

/** `https://bot.example.com` + `slack/events` → `https://bot.example.com/slack/events`; only https (Slack requires it). */
function publicUrl(base: string, path: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`--http needs an absolute https URL such as https://bot.example.com, got "${base}"`);
  }
  if (url.protocol !== 'https:') {
    throw new Error(`Slack only calls https request URLs: use https://… for --http (got ${url.protocol})`);
  }
  return new URL(path, url.href.endsWith('/') ? url.href : `${url.href}/`).toString();
}
