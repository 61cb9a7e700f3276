/**
 * Gateway and REST payload builders for the fake Discord: just enough of each
 * object for discord.js 14 to build its structures without complaint.
 */

const discordEpoch = 1_420_070_400_000n;
let sequence = 0n;

/** A fresh snowflake: real-looking (timestamp in the high bits), unique within the process. */
/** A Discord id carrying the time `at` (epoch ms; default now), unique in the process. */
export function snowflake(at: number = Date.now()): string {
  sequence += 1n;
  return (((BigInt(Math.floor(at)) - discordEpoch) << 22n) | (sequence & 0x3fffffn)).toString();
}

export interface FakeUser {
  readonly id: string;
  readonly username: string;
  readonly global_name: string | null;
  readonly bot?: boolean;
}

export function userPayload(user: FakeUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    global_name: user.global_name,
    discriminator: '0',
    avatar: null,
    bot: user.bot ?? false,
    public_flags: 0,
  };
}

export interface FakePermissionOverwrite {
  /** A role id (type 0) or a member's user id (type 1). */
  readonly id: string;
  readonly type: 0 | 1;
  readonly allow?: bigint;
  readonly deny?: bigint;
}

export interface FakeChannel {
  readonly id: string;
  readonly name: string;
  /** 0 = text (default); 11 = public thread (then `parentId`), sent in GUILD_CREATE's `threads`. */
  readonly type?: number;
  readonly permissionOverwrites?: readonly FakePermissionOverwrite[];
  /** Threads: the channel they belong to. */
  readonly parentId?: string;
  /** Threads. */
  readonly archived?: boolean;
  readonly locked?: boolean;
}

export interface FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly channels: readonly FakeChannel[];
  /** The permissions of the bot's own role (default {@link defaultBotPermissions}). */
  readonly botPermissions?: bigint;
}

/** View Channel, Send Messages, Embed Links, Attach Files, Read Message History, Send Messages in Threads. */
export const defaultBotPermissions =
  (1n << 10n) | (1n << 11n) | (1n << 14n) | (1n << 15n) | (1n << 16n) | (1n << 38n);

/** The id of the bot's managed role in a fake guild (the guild id + 1). */
export function botRoleId(guild: Pick<FakeGuild, 'id'>): string {
  return String(BigInt(guild.id) + 1n);
}

export const isThread = (channel: FakeChannel): boolean =>
  channel.type === 10 || channel.type === 11 || channel.type === 12;

export function channelPayload(channel: FakeChannel, guildId: string): Record<string, unknown> {
  return {
    id: channel.id,
    type: channel.type ?? 0,
    guild_id: guildId,
    name: channel.name,
    position: 0,
    permission_overwrites: (channel.permissionOverwrites ?? []).map((o) => ({
      id: o.id,
      type: o.type,
      allow: String(o.allow ?? 0n),
      deny: String(o.deny ?? 0n),
    })),
    nsfw: false,
    topic: null,
    last_message_id: null,
    parent_id: channel.parentId ?? null,
    rate_limit_per_user: 0,
    flags: 0,
    ...(isThread(channel)
      ? {
          owner_id: '1',
          member_count: 1,
          message_count: 0,
          thread_metadata: {
            archived: channel.archived ?? false,
            locked: channel.locked ?? false,
            auto_archive_duration: 1440,
            archive_timestamp: new Date().toISOString(),
          },
        }
      : {}),
  };
}

export function guildCreatePayload(guild: FakeGuild, bot: FakeUser): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: '1',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    features: [],
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    vanity_url_code: null,
    roles: [
      {
        id: guild.id,
        name: '@everyone',
        permissions: '0',
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
      {
        id: botRoleId(guild),
        name: bot.username,
        permissions: String(guild.botPermissions ?? defaultBotPermissions),
        position: 1,
        color: 0,
        hoist: false,
        managed: true,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: 1,
    members: [memberPayload(bot, 0n, null, [botRoleId(guild)])],
    channels: guild.channels.filter((c) => !isThread(c)).map((c) => channelPayload(c, guild.id)),
    threads: guild.channels.filter(isThread).map((c) => channelPayload(c, guild.id)),
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function memberPayload(
  user: FakeUser,
  permissions: bigint,
  nick: string | null = null,
  roles: readonly string[] = [],
) {
  return {
    user: userPayload(user),
    nick,
    avatar: null,
    roles,
    joined_at: new Date().toISOString(),
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
    permissions: permissions.toString(),
  };
}

/** A message as Create Message and the webhook routes return it. */
export function messagePayload(fields: {
  readonly id: string;
  readonly channelId: string;
  readonly guildId?: string | undefined;
  readonly author: FakeUser;
  readonly body: Record<string, unknown>;
  readonly attachments: readonly { readonly filename: string; readonly size: number }[];
  readonly webhookId?: string | undefined;
  /** Ids for the attachments (default {@link snowflake} of now): a fake on a virtual clock passes its own. */
  readonly newId?: () => string;
}): Record<string, unknown> {
  const { body } = fields;
  const newId = fields.newId ?? (() => snowflake());
  return {
    id: fields.id,
    channel_id: fields.channelId,
    ...(fields.guildId ? { guild_id: fields.guildId } : {}),
    ...(fields.webhookId ? { webhook_id: fields.webhookId, application_id: fields.webhookId } : {}),
    author: userPayload(fields.author),
    content: typeof body['content'] === 'string' ? body['content'] : '',
    // Discord's own rule: a message's time is its id's.
    timestamp: new Date(Number((BigInt(fields.id) >> 22n) + discordEpoch)).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: fields.attachments.map((a) => ({
      id: newId(),
      filename: a.filename,
      size: a.size,
      url: `https://cdn.example.invalid/${a.filename}`,
      proxy_url: `https://media.example.invalid/${a.filename}`,
    })),
    embeds: Array.isArray(body['embeds']) ? body['embeds'] : [],
    components: Array.isArray(body['components']) ? body['components'] : [],
    pinned: false,
    type: 0,
    flags: typeof body['flags'] === 'number' ? body['flags'] : 0,
    ...(body['nonce'] !== undefined ? { nonce: body['nonce'] } : {}),
  };
}
