/**
 * The bot events a generated Slack app manifest must subscribe, as the manifest tests expect them. Every manifest:
 * the bot invited back or a channel unarchived (notices held for it go out at once), and its own notices as they
 * land (doubts settle without looks, a copy landed late is removed).
 */
export const everyManifestEvents = [
  'member_joined_channel',
  'channel_unarchive',
  'group_unarchive',
  'message.channels',
  'message.groups',
] as const;

/** Many workspaces (--oauth) add an uninstall or revoked tokens (that workspace's data removed) and the App Home. */
export const oauthManifestEvents = [
  ...everyManifestEvents,
  'app_uninstalled',
  'tokens_revoked',
  'app_home_opened',
] as const;
