import {
  type APIApplicationCommandBasicOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { CommandDefinition, LocalizedText, OptionDefinition } from '../../domain/command-definitions.js';
import { clip } from './escape-discord.js';

/** Discord's limits for application commands. */
const limits = { description: 100, choiceName: 100, options: 25, choices: 25 } as const;
const namePattern = /^[-_\p{Ll}\p{N}]{1,32}$/u;

/**
 * The JSON body for Discord's bulk overwrite of application commands, built from
 * src/domain/command-definitions.ts. Admin commands get `default_member_permissions`
 * Manage Server (the adapter checks it again: server owners can change it);
 * every command is guild-only (`contexts`), since notices and settings belong to
 * a server's channels. German goes into the `de` localizations. Descriptions
 * longer than Discord's 100 characters are shortened rather than rejected.
 */
export function buildDiscordCommandPayloads(
  definitions: readonly CommandDefinition[],
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return definitions.map((command) => {
    assertName(command.name, 'command');
    if (command.options.length > limits.options) {
      throw new Error(`Command ${command.name} has more than ${limits.options} options`);
    }
    // Discord requires required options before optional ones.
    const options = [...command.options].sort((a, b) => Number(b.required) - Number(a.required));
    return {
      type: ApplicationCommandType.ChatInput,
      name: command.name,
      ...describe(command.description),
      options: options.map(optionPayload),
      default_member_permissions: command.admin ? String(PermissionFlagsBits.ManageGuild) : null,
      contexts: [InteractionContextType.Guild],
      integration_types: [ApplicationIntegrationType.GuildInstall],
      nsfw: false,
    };
  });
}

function optionPayload(option: OptionDefinition): APIApplicationCommandBasicOption {
  assertName(option.name, 'option');
  const base = { name: option.name, ...describe(option.description), required: option.required };
  switch (option.type) {
    case 'boolean':
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    case 'integer':
      return { ...base, type: ApplicationCommandOptionType.Integer };
    case 'string':
      if (option.choices) {
        if (option.choices.length > limits.choices) {
          throw new Error(`Option ${option.name} has more than ${limits.choices} choices`);
        }
        return {
          ...base,
          type: ApplicationCommandOptionType.String,
          choices: option.choices.map((c) => ({ name: clip(c.name, limits.choiceName), value: c.value })),
        };
      }
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        ...(option.autocomplete ? { autocomplete: true } : {}),
      };
  }
}

function describe(text: LocalizedText): {
  description: string;
  description_localizations: { de: string };
} {
  return {
    description: clip(text.en, limits.description),
    description_localizations: { de: clip(text.de, limits.description) },
  };
}

function assertName(name: string, what: string): void {
  if (!namePattern.test(name)) {
    throw new Error(`Discord ${what} name "${name}" is invalid: 1-32 lowercase letters, digits, - or _`);
  }
}
