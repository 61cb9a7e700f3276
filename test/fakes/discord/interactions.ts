/**
 * Interactions the fake Discord pushes over the gateway: what a test describes
 * (a slash command or an autocomplete, who sent it, where) and the
 * INTERACTION_CREATE payload discord.js builds its interaction from.
 */
import { randomBytes } from 'node:crypto';
import { defaultGuild } from './channel-store.js';
import {
  channelPayload,
  type FakeGuild,
  type FakeUser,
  memberPayload,
  snowflake,
  userPayload,
} from './fake-discord-payloads.js';

export interface InteractionMember {
  readonly user?: FakeUser;
  readonly nick?: string | null;
  /** The member's computed permissions in the channel. */
  readonly permissions?: bigint;
}

export interface ChatInputInteraction extends InteractionMember {
  readonly command: string;
  readonly options?: readonly {
    readonly name: string;
    readonly value: string | number | boolean;
    readonly type?: number;
  }[];
  readonly locale?: string;
  readonly guildId?: string | null;
  readonly channelId?: string;
}

export interface AutocompleteInteraction extends ChatInputInteraction {
  /** The option being typed. */
  readonly focused: string;
}

export interface SentInteraction {
  readonly id: string;
  readonly token: string;
}

export const defaultMember: Required<Pick<InteractionMember, 'user'>> = {
  user: { id: '300000000000000001', username: 'alice', global_name: 'Alice' },
};

/** 2: application command (chat input), 4: autocomplete. */
export type InteractionType = 2 | 4;

const optionTypeOf = (value: string | number | boolean): number =>
  typeof value === 'string' ? 3 : typeof value === 'boolean' ? 5 : Number.isInteger(value) ? 4 : 10;

/**
 * An INTERACTION_CREATE payload with a fresh id and token. `guildId` null makes a
 * DM (a user, no member); left out, the interaction comes from the default guild.
 */
export function interactionPayload(
  type: InteractionType,
  interaction: ChatInputInteraction,
  app: { readonly applicationId: string; readonly guilds: readonly FakeGuild[] },
  focused?: string,
): { readonly payload: Record<string, unknown>; readonly sent: SentInteraction } {
  const id = snowflake();
  const interactionToken = `fake-interaction-token-${randomBytes(12).toString('hex')}`;
  const guildId = interaction.guildId === undefined ? defaultGuild.id : interaction.guildId;
  const guild = app.guilds.find((g) => g.id === guildId);
  const channel = guild?.channels.find((c) => c.id === interaction.channelId) ?? guild?.channels[0];
  const user = interaction.user ?? defaultMember.user;
  const options = (interaction.options ?? []).map((o) => ({
    name: o.name,
    type: o.type ?? optionTypeOf(o.value),
    value: o.value,
    ...(o.name === focused ? { focused: true } : {}),
  }));
  const inGuild = guildId !== null;
  const payload = {
    id,
    application_id: app.applicationId,
    type,
    token: interactionToken,
    version: 1,
    locale: interaction.locale ?? 'en-US',
    // discord.js's Interaction constructor reduces over it.
    entitlements: [],
    app_permissions: (2n ** 50n - 1n).toString(),
    attachment_size_limit: 8 * 1024 * 1024,
    authorizing_integration_owners: inGuild ? { '0': guildId } : { '1': user.id },
    context: inGuild ? 0 : 1,
    data: {
      id: snowflake(),
      name: interaction.command,
      type: 1,
      options,
      ...(inGuild ? { guild_id: guildId } : {}),
    },
    ...(inGuild
      ? {
          guild_id: guildId,
          guild_locale: 'en-US',
          guild: { id: guildId, locale: 'en-US', features: [] },
          channel_id: channel?.id ?? interaction.channelId,
          channel: channel ? channelPayload(channel, guildId) : undefined,
          member: memberPayload(user, interaction.permissions ?? 0n, interaction.nick ?? null),
        }
      : {
          channel_id: interaction.channelId ?? '500000000000000001',
          channel: {
            id: interaction.channelId ?? '500000000000000001',
            type: 1,
            recipients: [userPayload(user)],
          },
          user: userPayload(user),
        }),
  };
  return { payload, sent: { id, token: interactionToken } };
}
