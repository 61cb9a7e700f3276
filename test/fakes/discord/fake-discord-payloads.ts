/**
 * Gateway and REST payload builders for the fake Discord: just enough of each
 * object for discord.js 14 to build its structures without complaint.
 */

const discordEpoch = 1_420_070_400_000n;
let sequence = 0n;

/** A fresh snowflake: real-looking (timestamp in the high bits), unique within the process. */
export function snowflake(): string {
  sequence += 1n;
  return (((BigInt(Date.now()) - discordEpoch) << 22n) | (sequence & 0x3fffffn)).toString();
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

export interface FakeChannel {
  readonly id: string;
  readonly name: string;
  /** 0 = text (default). */
  readonly type?: number;
}

export interface FakeGuild {
  readonly id: string;
  readonly name: string;
  readonly channels: readonly FakeChannel[];
}

export function channelPayload(channel: FakeChannel, guildId: string): Record<string, unknown> {
  return {
    id: channel.id,
    type: channel.type ?? 0,
    guild_id: guildId,
    name: channel.name,
    position: 0,
    permission_overwrites: [],
    nsfw: false,
    topic: null,
    last_message_id: null,
    parent_id: null,
    rate_limit_per_user: 0,
    flags: 0,
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
    ],
    emojis: [],
    stickers: [],
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: 1,
    members: [memberPayload(bot, 0n)],
    channels: guild.channels.map((c) => channelPayload(c, guild.id)),
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function memberPayload(user: FakeUser, permissions: bigint, nick: string | null = null) {
  return {
    user: userPayload(user),
    nick,
    avatar: null,
    roles: [],
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
}): Record<string, unknown> {
  const { body } = fields;
  return {
    id: fields.id,
    channel_id: fields.channelId,
    ...(fields.guildId ? { guild_id: fields.guildId } : {}),
    ...(fields.webhookId ? { webhook_id: fields.webhookId, application_id: fields.webhookId } : {}),
    author: userPayload(fields.author),
    content: typeof body['content'] === 'string' ? body['content'] : '',
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: fields.attachments.map((a) => ({
      id: snowflake(),
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
