import {
  type APIInteractionGuildMember,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  GuildMember,
  PermissionFlagsBits,
  PermissionsBitField,
} from 'discord.js';
import type { CommandContext, CommandInvocation, OptionValue } from '../../core/index.js';
import {
  type CommandDefinition,
  commandDefinitions,
  type OptionDefinition,
} from '../../domain/command-definitions.js';
import { limits } from '../../domain/text-limits.js';
import { clip } from './escape-discord.js';

/** The definition of a command by its Discord name (the canonical `name`). */
export function discordCommandDefinition(name: string): CommandDefinition | undefined {
  return commandDefinitions.find((command) => command.name === name);
}

type GuildInteraction =
  | ChatInputCommandInteraction<'raw' | 'cached'>
  | AutocompleteInteraction<'raw' | 'cached'>;

/**
 * What fundbot reads from a guild interaction, whichever way it arrived: the
 * gateway (discord.js structures) or the HTTP endpoint (raw API JSON). Both paths
 * fill this and the functions below turn it into the core's shapes, so the two
 * modes cannot drift apart.
 */
export interface GuildInteractionFacts {
  readonly commandName: string;
  readonly guildId: string;
  readonly channelId: string | null | undefined;
  readonly userId: string;
  readonly displayName: string;
  /** The member's permissions in the channel as Discord computed them (a bitfield or its decimal string). */
  readonly permissions: bigint | string | PermissionsBitField;
  readonly locale: string;
  /** The raw value of a top-level option, if the user gave it. */
  optionValue(name: string): unknown;
}

/**
 * Who asked and where. `canAdminister` is the member's Manage Server permission
 * as Discord computed it for this channel (Administrator implies it): the
 * server-side check behind `default_member_permissions`, which a server owner
 * can override per command in the integration settings.
 */
export function contextFromFacts(facts: GuildInteractionFacts): CommandContext {
  const permissions =
    facts.permissions instanceof PermissionsBitField
      ? facts.permissions
      : new PermissionsBitField(BigInt(facts.permissions));
  return {
    user: { id: facts.userId, displayName: facts.displayName },
    channel: { platform: 'discord', workspaceId: facts.guildId, channelId: facts.channelId ?? '' },
    canAdminister: permissions.has(PermissionFlagsBits.ManageGuild),
    platformLocale: facts.locale,
  };
}

/**
 * A slash command as the core's invocation. Option values are read by the
 * definition's type; a value of another type (a stale registration) is left out,
 * so the core answers with its usual "missing option" message instead of guessing.
 */
export function invocationFromFacts(facts: GuildInteractionFacts): CommandInvocation {
  const definition = discordCommandDefinition(facts.commandName);
  const options: Record<string, OptionValue | undefined> = {};
  for (const option of definition?.options ?? []) {
    const value = typedValue(option, facts.optionValue(option.name));
    if (value !== undefined) options[option.name] = value;
  }
  return { name: facts.commandName, options, context: contextFromFacts(facts) };
}

/** The gateway path: facts read from discord.js's structures. */
export function factsFromInteraction(interaction: GuildInteraction): GuildInteractionFacts {
  return {
    commandName: interaction.commandName,
    guildId: interaction.guildId,
    channelId: interaction.channelId,
    userId: interaction.user.id,
    displayName: displayNameOf(interaction.member, interaction.user),
    permissions: interaction.memberPermissions,
    locale: interaction.locale,
    optionValue: (name) => interaction.options.get(name)?.value,
  };
}

export function contextFromInteraction(interaction: GuildInteraction): CommandContext {
  return contextFromFacts(factsFromInteraction(interaction));
}

export function invocationFromInteraction(
  interaction: ChatInputCommandInteraction<'raw' | 'cached'>,
): CommandInvocation {
  return invocationFromFacts(factsFromInteraction(interaction));
}

/** Whether an option gets the core's project suggestions (every other option gets none). */
export function suggestsProjects(commandName: string, optionName: string): boolean {
  const option = discordCommandDefinition(commandName)?.options.find((o) => o.name === optionName);
  return option?.autocomplete === 'project';
}

/**
 * The core's suggestions as Discord autocomplete choices: names and values are
 * 1-100 characters (a longer value cannot be shortened without changing it, so it
 * is left out), at most 25 choices; Discord shows names as plain text.
 */
export function autocompleteChoices(
  suggestions: readonly { readonly name: string; readonly value: string }[],
): { name: string; value: string }[] {
  return suggestions
    .filter((s) => s.name.length > 0 && s.value.length > 0 && s.value.length <= limits.suggestion)
    .slice(0, limits.suggestions)
    .map((s) => ({ name: clip(s.name, limits.suggestion), value: s.value }));
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

/** Server nickname, then global display name, then username: what members see in the member list. */
export function displayNameOf(
  member: GuildMember | APIInteractionGuildMember | null | undefined,
  user: {
    readonly globalName?: string | null;
    readonly global_name?: string | null;
    readonly username: string;
  },
): string {
  if (member instanceof GuildMember) return member.displayName;
  return member?.nick ?? user.globalName ?? user.global_name ?? user.username;
}
