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

/** The longest wait of discord.js's own pacing under the global per-second limit. */
const globalPaceMs = 1_000;

/**
 * The REST options of a client that posts notices (and looks, edits, removes copies and opens threads for them):
 * no retries of its own (a retried post is a repeat the pipeline would not know of, see createDiscordPoster) and
 * no waits of its own. A rate limit, whether a 429 came back or a bucket or the global limit is known to be spent,
 * rejects at once (but for discord.js pacing the global 50 a second, a wait under a second) with discord.js's RateLimitError carrying the wait; the poster turns it into
 * DeliveryNotPostedError(retryAfter) and the delivery lane waits it out on the injected clock, its one backoff.
 * Waiting inside discord.js would hold the lane on the wall clock, unseen by its stall rules and look budgets.
 */
export function discordPostingRestOptions(
  settings: Omit<DiscordRestSettings, 'retries'>,
): Partial<RESTOptions> {
  return {
    ...discordRestOptions({ ...settings, retries: 0 }),
    // discord.js's own pacing under the global 50 requests a second waits at most a second: that stays a
    // client's pause like a slow answer; anything longer is a wait the lane must know of.
    rejectOnRateLimit: (limit) => !(limit.global && limit.timeToReset <= globalPaceMs),
  };
}

/** A REST client with {@link discordPostingRestOptions}, authenticated with the bot token. */
export function createDiscordPostingRest(
  settings: Omit<DiscordRestSettings, 'retries'> & { readonly token: string },
): REST {
  return new REST(discordPostingRestOptions(settings)).setToken(settings.token);
}

/** Stops a REST client's sweeper timers and closes its connection pool. Idempotent. */
export async function closeDiscordRest(rest: REST): Promise<void> {
  rest.clearHashSweeper();
  rest.clearHandlerSweeper();
  // A second close (stop after a failed start) rejects with "already destroyed": nothing is left to close.
  await rest.agent?.close().catch(() => undefined);
}
