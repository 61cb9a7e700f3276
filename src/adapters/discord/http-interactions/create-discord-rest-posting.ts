import type { ChannelAccess } from '../../../core/index.js';
import type { ChannelPoster } from '../../../delivery/index.js';
import type { Clock } from '../../../lib/clock.js';
import { closeDiscordRest, createDiscordPostingRest, createDiscordRest } from '../discord-rest.js';
import { createRestChannelAccess } from './rest-channel-access.js';
import { createRestPoster } from './rest-poster.js';

export interface DiscordRestPostingOptions {
  /** The bot token (DISCORD_TOKEN). Never logged. */
  readonly token: string;
  /** REST base URL without the version (default Discord's `https://discord.com/api`). */
  readonly apiUrl?: string;
  readonly restTimeoutMs?: number;
  /** Time for the in-doubt rules (the nonce window). */
  readonly clock: Clock;
}

export interface DiscordRestPosting {
  readonly poster: ChannelPoster;
  readonly channelAccess: ChannelAccess;
  /** Stops the REST client's sweeper timers and closes its connections. */
  close(): Promise<void>;
}

/**
 * Notices and /subscribe's channel check through Discord's REST API alone, with the
 * same nonce rule as every Discord poster. For replicas in gateway mode: only the
 * holder of the gateway lease has a session (and a channel cache), but every replica
 * posts the notices of the projects it polls. Cost: as {@link createRestPoster}.
 */
export function createDiscordRestPosting(options: DiscordRestPostingOptions): DiscordRestPosting {
  const restTimeoutMs = options.restTimeoutMs ?? 15_000;
  // Notices: no retries and no waits of the client's own (discordPostingRestOptions): the pipeline repeats a post
  // itself, with the same nonce, watches for a late copy, and waits out a rate limit on its clock.
  const rest = createDiscordPostingRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: restTimeoutMs,
  });
  // /subscribe's check answers a person: it rides out a rate limit or a blip rather than refuse.
  const checkRest = createDiscordRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: restTimeoutMs,
    retries: 3,
  });
  return {
    poster: createRestPoster({ rest, restTimeoutMs }),
    channelAccess: createRestChannelAccess(checkRest),
    close: async () => {
      await closeDiscordRest(rest);
      await closeDiscordRest(checkRest);
    },
  };
}
