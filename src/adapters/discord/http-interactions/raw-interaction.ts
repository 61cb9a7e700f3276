import type {
  APIApplicationCommandInteractionDataBasicOption,
  APIApplicationCommandInteractionDataOption,
  APIInteraction,
  APIInteractionGuildMember,
  APIUser,
} from 'discord.js';
import { displayNameOf, type GuildInteractionFacts } from '../interaction-invocation.js';

/** Interaction types (discord-api-types' InteractionType) fundbot answers. */
export const interactionTypes = { ping: 1, applicationCommand: 2, autocomplete: 4 } as const;
/** Chat input (slash) commands among application command types. */
const chatInputCommandType = 1;

/**
 * The facts of a slash command or autocomplete interaction as it arrives over
 * HTTP, or undefined when it did not come from a server member (a DM, a user
 * install): fundbot's commands belong to servers. Reads the same fields discord.js
 * reads on the gateway path (member permissions, nick, global name, locale).
 */
export function factsFromRawInteraction(interaction: APIInteraction): GuildInteractionFacts | undefined {
  if (
    interaction.type !== interactionTypes.applicationCommand &&
    interaction.type !== interactionTypes.autocomplete
  ) {
    return undefined;
  }
  const data = interaction.data;
  if (data.type !== chatInputCommandType) return undefined;
  const options = topLevelOptions(data.options);
  return memberFacts(interaction, data.name, (name) => options.find((o) => o.name === name)?.value);
}

/**
 * Who sent a raw interaction where, as the core reads it (a slash command or a modal submission), or
 * undefined when it did not come from a server member.
 */
export function memberFacts(
  interaction: APIInteraction,
  commandName: string,
  optionValue: GuildInteractionFacts['optionValue'],
): GuildInteractionFacts | undefined {
  const member = (interaction as { member?: APIInteractionGuildMember }).member;
  const guildId = interaction.guild_id;
  if (!guildId || !member) return undefined;
  return {
    commandName,
    guildId,
    channelId: interaction.channel?.id ?? (interaction as { channel_id?: string }).channel_id,
    userId: member.user.id,
    displayName: displayNameOf(member, member.user as APIUser),
    permissions: member.permissions,
    locale: (interaction as { locale?: string }).locale ?? 'en-US',
    optionValue,
  };
}

/** The option the user is typing in an autocomplete interaction. */
export function focusedOption(interaction: APIInteraction): { name: string; value: string } | undefined {
  if (interaction.type !== interactionTypes.autocomplete || interaction.data.type !== chatInputCommandType) {
    return undefined;
  }
  const focused = topLevelOptions(interaction.data.options).find((o) => 'focused' in o && o.focused);
  return focused ? { name: focused.name, value: String(focused.value) } : undefined;
}

/** fundbot's commands have no subcommands: only options that carry a value count. */
function topLevelOptions(
  options: readonly APIApplicationCommandInteractionDataOption[] | undefined,
): (APIApplicationCommandInteractionDataBasicOption & { value: unknown })[] {
  return (options ?? []).filter(
    (o): o is APIApplicationCommandInteractionDataBasicOption & { value: unknown } => 'value' in o,
  );
}
