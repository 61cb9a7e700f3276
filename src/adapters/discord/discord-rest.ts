import { createRequire } from 'node:module';
import { REST, type RESTOptions } from 'discord.js';

/** The dispatcher type @discordjs/rest takes (its own undici's). */
type RestAgent = NonNullable<RESTOptions['agent']>;

/**
 * The undici that @discordjs/rest itself depends on, resolved from its own folder. Without an
 * agent of its own, @discordjs/rest sends through the process-wide dispatcher: whichever undici
 * loaded first in the process (fundbot's, @slack/socket-mode's) and a different major version
 * of it broke every request with a file ("action is not a function": the chart, the digest).
 * Handing each REST client an Agent of the undici it was built with keeps Discord's HTTP stack
 * Discord's, whatever else the process loads.
 */
const restRequire = createRequire(createRequire(import.meta.url).resolve('@discordjs/rest'));
const { Agent } = restRequire('undici') as {
  readonly Agent: new (options: { readonly keepAliveTimeout: number }) => RestAgent;
};

export interface DiscordRestSettings {
  /** REST base URL without the version (default Discord's `https://discord.com/api`); tests point it at a fake. */
  readonly apiUrl?: string | undefined;
  readonly timeoutMs: number;
  readonly retries: number;
}

/**
 * The REST options every Discord client of fundbot uses (the gateway Client's `rest`, the
 * http mode's and the replicas' REST): the base URL without a trailing slash (discord.js
 * appends `/v10/...`), the timeout and retries, and a connection pool of its own.
 */
export function discordRestOptions(settings: DiscordRestSettings): Partial<RESTOptions> {
  const api = settings.apiUrl?.replace(/\/+$/, '');
  return {
    ...(api ? { api } : {}),
    timeout: settings.timeoutMs,
    retries: settings.retries,
    agent: new Agent({ keepAliveTimeout: 30_000 }),
  };
}

/** A REST client with {@link discordRestOptions}, authenticated with the bot token. */
export function createDiscordRest(settings: DiscordRestSettings & { readonly token: string }): REST {
  return new REST(discordRestOptions(settings)).setToken(settings.token);
}

/** Stops a REST client's sweeper timers and closes its connection pool. Idempotent. */
export async function closeDiscordRest(rest: REST): Promise<void> {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  // A second close (stop after a failed start) rejects with "already destroyed": nothing is left to close.
  await rest.agent?.close().catch(() => undefined);
}
