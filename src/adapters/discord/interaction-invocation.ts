import {
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  GuildMember,
  PermissionFlagsBits,
} from 'discord.js';
import type { CommandContext, CommandInvocation, OptionValue } from '../../core/index.js';
import {
  type CommandDefinition,
  commandDefinitions,
  type OptionDefinition,
} from '../../domain/command-definitions.js';

/** The definition of a command by its Discord name (the canonical `name`). */
export function discordCommandDefinition(name: string): CommandDefinition | undefined {
  return commandDefinitions.find((command) => command.name === name);
}

type GuildInteraction =
  | ChatInputCommandInteraction<'raw' | 'cached'>
  | AutocompleteInteraction<'raw' | 'cached'>;

/**
 * Who asked and where. `canAdminister` is the member's Manage Server permission
 * as Discord computed it for this channel (Administrator implies it): the
 * server-side check behind `default_member_permissions`, which a server owner
 * can override per command in the integration settings.
 */
export function contextFromInteraction(interaction: GuildInteraction): CommandContext {
  return {
    user: { id: interaction.user.id, displayName: displayNameOf(interaction) },
    channel: {
      platform: 'discord',
      workspaceId: interaction.guildId,
      channelId: interaction.channelId ?? '',
    },
    canAdminister: interaction.memberPermissions.has(PermissionFlagsBits.ManageGuild),
    platformLocale: interaction.locale,
  };
}

/**
 * A slash command as the core's invocation. Option values are read by the
 * definition's type; a value of another type (a stale registration) is left out,
 * so the core answers with its usual "missing option" message instead of guessing.
 */
export function invocationFromInteraction(
  interaction: ChatInputCommandInteraction<'raw' | 'cached'>,
): CommandInvocation {
  const definition = discordCommandDefinition(interaction.commandName);
  const options: Record<string, OptionValue | undefined> = {};
  for (const option of definition?.options ?? []) {
    const value = typedValue(option, interaction.options.get(option.name)?.value);
    if (value !== undefined) options[option.name] = value;
  }
  return { name: interaction.commandName, options, context: contextFromInteraction(interaction) };
}

function typedValue(option: OptionDefinition, value: unknown): OptionValue | undefined {
  switch (option.type) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
  }
}

function displayNameOf(interaction: GuildInteraction): string {
  const member = interaction.member;
  if (member instanceof GuildMember) return member.displayName;
  return member.nick ?? interaction.user.globalName ?? interaction.user.username;
}
