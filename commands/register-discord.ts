/**
 * Registers fundbot's slash commands with Discord.
 *
 *   npm run commands:discord -- [--guild <server id>] [--public-url <https base>]
 *
 * Reads DISCORD_TOKEN and DISCORD_APPLICATION_ID (or `discord.applicationId` from the
 * config file; DISCORD_API_URL overrides the API base, for tests). Global commands can
 * take a while to show up everywhere; `--guild` registers them in one server at once,
 * which suits development. It also prints the Interactions Endpoint URL to paste into
 * the Developer Portal for `discord.mode: "http"`, built from `--public-url`, else
 * FUNDBOT_PUBLIC_URL, else the config file's `publicUrl`.
 */
import { pathToFileURL } from 'node:url';
import {
  defaultInteractionsPath,
  interactionsEndpointUrl,
} from '../src/adapters/discord/http-interactions/index.js';
import { registerDiscordCommands } from '../src/adapters/discord/register-commands.js';
import {
  type ConfigProblem,
  checkPublicUrl,
  configPath,
  envVars,
  formatConfigProblem,
  type ReadTextFile,
  readTextFileSync,
} from '../src/config/index.js';

export interface ScriptIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** Runs the registration; resolves with the process exit code. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: ScriptIo = { out: console.log, err: console.error },
  readFile: ReadTextFile = readTextFileSync,
): Promise<number> {
  const file = discordSettingsOf(readFile, configPath(env));
  const problems: string[] = [];
  const guildAt = argv.indexOf('--guild');
  const guildId = guildAt >= 0 ? argv[guildAt + 1] : undefined;
  if (guildAt >= 0 && !guildId?.match(/^\d{15,25}$/)) {
    problems.push(
      '--guild needs a server id (right-click the server with Developer Mode on → Copy Server ID)',
    );
  }
  const publicAt = argv.indexOf('--public-url');
  const fromEnv = env[envVars.publicUrl]?.trim() || undefined;
  const [publicUrl, where] =
    publicAt >= 0
      ? [argv[publicAt + 1] ?? '', '--public-url']
      : fromEnv !== undefined
        ? [fromEnv, `env ${envVars.publicUrl}`]
        : [file.publicUrl, 'publicUrl'];
  let interactionsUrl: string | undefined;
  if (publicUrl !== undefined) {
    // The bot's own rule (src/config/service-url.ts): what the bot accepts, this script accepts, and no more.
    const urlProblems: ConfigProblem[] = [];
    const base = checkPublicUrl(publicUrl, where, urlProblems);
    problems.push(...urlProblems.map(formatConfigProblem));
    if (base !== undefined) interactionsUrl = interactionsEndpointUrl(base);
  }
  const token = env['DISCORD_TOKEN']?.trim();
  if (!token) {
    problems.push(
      'DISCORD_TOKEN is not set: copy the bot token from the Developer Portal (your app → Bot → Reset Token)',
    );
  }
  const applicationId = env['DISCORD_APPLICATION_ID']?.trim() || file.applicationId;
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
    if (file.mode !== 'http') {
      io.out(
        'discord.mode is "gateway": leave the Interactions Endpoint URL empty (with one set, Discord sends the commands there instead of to the gateway)',
      );
    }
    io.out(
      `For discord.mode "http", set Developer Portal → General Information → Interactions Endpoint URL to ${
        interactionsUrl ??
        `https://<your public host>${defaultInteractionsPath} (set ${envVars.publicUrl} or publicUrl to print the whole URL)`
      } (the bot must be running: Discord checks the endpoint when you save it)`,
    );
    if (interactionsUrl?.startsWith('http:')) {
      io.out(
        `${interactionsUrl} is this machine over plain http, fine for a local trial: Discord itself calls only https, so give it the https address of a tunnel or proxy in front of it`,
      );
    }
    return 0;
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

/** The few settings this script takes from the config file, leniently: it may not exist or be incomplete. */
function discordSettingsOf(
  readFile: ReadTextFile,
  path: string,
): { mode?: string; applicationId?: string; publicUrl?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFile(path).replace(/^\uFEFF/, ''));
  } catch {
    return {};
  }
  const record = (value: unknown): Record<string, unknown> =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const discord = record(record(raw)['discord']);
  const settings: { mode?: string; applicationId?: string; publicUrl?: string } = {};
  const mode = text(discord['mode']);
  const applicationId = text(discord['applicationId']);
  const publicUrl = text(record(raw)['publicUrl']);
  if (mode) settings.mode = mode;
  if (applicationId) settings.applicationId = applicationId;
  if (publicUrl) settings.publicUrl = publicUrl;
  return settings;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
