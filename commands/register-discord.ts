/**
 * Registers fundbot's slash commands with Discord.
 *
 *   npm run commands:discord -- [--guild <server id>] [--public-url <https base>]
 *
 * Reads DISCORD_TOKEN and DISCORD_APPLICATION_ID (DISCORD_API_URL overrides the
 * API base, for tests). Global commands can take a while to show up everywhere;
 * `--guild` registers them in one server at once, which suits development.
 * It also prints the Interactions Endpoint URL for `discord.mode: "http"`
 * (with `--public-url`, the full URL to paste into the Developer Portal).
 */
import { pathToFileURL } from 'node:url';
import {
  defaultInteractionsPath,
  interactionsEndpointUrl,
} from '../src/adapters/discord/http-interactions/index.js';
import { registerDiscordCommands } from '../src/adapters/discord/register-commands.js';

export interface ScriptIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs the registration; resolves with the process exit code. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: ScriptIo = { out: console.log, err: console.error },
): Promise<number> {
  const problems: string[] = [];
  const guildAt = argv.indexOf('--guild');
  const guildId = guildAt >= 0 ? argv[guildAt + 1] : undefined;
  if (guildAt >= 0 && !guildId?.match(/^\d{15,25}$/)) {
    problems.push(
      '--guild needs a server id (right-click the server with Developer Mode on → Copy Server ID)',
    );
  }
  const publicAt = argv.indexOf('--public-url');
  let interactionsUrl: string | undefined;
  if (publicAt >= 0) {
    try {
      interactionsUrl = interactionsEndpointUrl(argv[publicAt + 1] ?? '');
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  const token = env['DISCORD_TOKEN']?.trim();
  if (!token) {
    problems.push(
      'DISCORD_TOKEN is not set: copy the bot token from the Developer Portal (your app → Bot → Reset Token)',
    );
  }
  const applicationId = env['DISCORD_APPLICATION_ID']?.trim();
  if (!applicationId?.match(/^\d{15,25}$/)) {
    problems.push(
      'DISCORD_APPLICATION_ID is not set to a numeric id: copy the Application ID from the Developer Portal (your app → General Information)',
    );
  }
  if (problems.length > 0 || !token || !applicationId) {
    for (const problem of problems) io.err(problem);
    return 2;
  }
  try {
    const result = await registerDiscordCommands({
      token,
      applicationId,
      guildId,
      apiUrl: env['DISCORD_API_URL'] || undefined,
    });
    const where = result.scope === 'global' ? 'globally' : `in server ${result.scope.guildId}`;
    io.out(`Registered ${result.names.length} Discord commands ${where}: ${result.names.join(', ')}`);
    io.out(
      `For discord.mode "http", set Developer Portal → General Information → Interactions Endpoint URL to ${
        interactionsUrl ?? `https://<your public host>${defaultInteractionsPath}`
      } (the bot must be running: Discord checks the endpoint when you save it)`,
    );
    return 0;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
