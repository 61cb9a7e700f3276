import { DiscordAPIError, Routes } from 'discord.js';
import { commandDefinitions } from '../../domain/command-definitions.js';
import { scrubSecrets } from '../../lib/scrub-secrets.js';
import { buildDiscordCommandPayloads } from './command-payloads.js';
import { closeDiscordRest, createDiscordRest } from './discord-rest.js';

export interface RegisterDiscordCommandsOptions {
  readonly token: string;
  readonly applicationId: string;
  /** Register in one server (instant, for development) instead of globally. */
  readonly guildId?: string | undefined;
  /** REST base URL without the version (default Discord's); tests point it at a fake. */
  readonly apiUrl?: string | undefined;
}

export interface RegisteredCommands {
  readonly scope: 'global' | { readonly guildId: string };
  readonly names: readonly string[];
}

/**
 * Overwrites the bot's application commands with the ones in
 * src/domain/command-definitions.ts (a bulk PUT: commands no longer defined disappear).
 * Errors say what to fix and never contain the token.
 */
export async function registerDiscordCommands(
  options: RegisterDiscordCommandsOptions,
): Promise<RegisteredCommands> {
  const body = buildDiscordCommandPayloads(commandDefinitions);
  const rest = createDiscordRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: 15_000,
    retries: 1,
  });
  const route = options.guildId
    ? Routes.applicationGuildCommands(options.applicationId, options.guildId)
    : Routes.applicationCommands(options.applicationId);
  try {
    await rest.put(route, { body });
  } catch (error) {
    throw new Error(explain(error, options), { cause: error });
  } finally {
    await closeDiscordRest(rest);
  }
  return { scope: options.guildId ? { guildId: options.guildId } : 'global', names: body.map((c) => c.name) };
}

function explain(error: unknown, options: RegisterDiscordCommandsOptions): string {
  if (error instanceof DiscordAPIError) {
    if (error.status === 401) {
      return 'Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token from the Developer Portal (your app → Bot → Reset Token) into DISCORD_TOKEN';
    }
    if (error.status === 403 || error.status === 404) {
      return (
        `Discord refused the command registration (${error.status} ${scrubSecrets(error.message, [options.token])}): ` +
        'check that DISCORD_APPLICATION_ID is the id of the app the token belongs to' +
        (options.guildId
          ? ' and that the bot was invited to that server with the applications.commands scope'
          : '')
      );
    }
    if (error.status === 400) {
      return `Discord rejected the command definitions (400): ${scrubSecrets(error.message, [options.token])}; check src/domain/command-definitions.ts against Discord's limits`;
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Registering Discord commands failed: ${scrubSecrets(message, [options.token])}; check your network and DISCORD_API_URL`;
}
