/**
 * The one-project chat bot most journeys start: the journey's project with its key in the environment, the
 * SQLite store in the world's directory, the driver's platform section, and neither digest nor ops server
 * unless the journey asks (`extra` is merged last, so it may turn either on or add `engine`, `campaign`, ...).
 */
import { type BotProcess, type Entry, startBotProcess } from './bot-process.js';
import type { ChatDriver } from './chat-driver.js';
import { journeyProject } from './journey-project.js';
import type { JourneyWorld } from './journey-world.js';

/** Writes the journey's config file and returns its path. */
export async function writeChatBotConfig(
  world: JourneyWorld,
  driver: Pick<ChatDriver, 'configSection'>,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return world.writeConfig({
    api: { baseUrl: world.sim.url },
    store: { url: world.storeUrl },
    projects: [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
    ...(await driver.configSection()),
    digest: { enabled: false },
    http: { enabled: false },
    ...extra,
  });
}

/**
 * Starts the bot on a config written by {@link writeChatBotConfig}, with the key and the driver's tokens. The
 * feature journeys pass the compiled entry (compiled-entry.ts: `compiledEntryForFile`).
 */
export function startChatBot(
  world: JourneyWorld,
  driver: Pick<ChatDriver, 'env'>,
  options: { readonly name: string; readonly config: string; readonly entry: Entry },
): BotProcess {
  return startBotProcess({
    name: options.name,
    entry: options.entry,
    cwd: world.dir,
    env: { FUNDBOT_CONFIG: options.config, SOLAR_KIOSK_API_KEY: world.apiKey, ...driver.env() },
  });
}
