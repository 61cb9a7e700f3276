import type { ChannelAccess } from '../../../core/index.js';
import type { ChannelPoster } from '../../../delivery/index.js';
import type { Clock } from '../../../lib/clock.js';
import { closeDiscordRest, createDiscordRest } from '../discord-rest.js';
import { createRestChannelAccess } from './rest-channel-access.js';
import { createRestPoster } from './rest-poster.js';

export interface DiscordRestPostingOptions {
  /** The bot token (DISCORD_TOKEN). Never logged. */
  readonly token: string;
  /** REST base URL without the version (default Discord's `https://discord.com/api`). */
  readonly apiUrl?: string;
  readonly restTimeoutMs?: number;
  /**
   * Default 0: a retried post is a repeat the pipeline would not know of (see createDiscordPoster); the
   * pipeline repeats itself, with the same nonce, and watches for a late copy.
   */
  readonly restRetries?: number;
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
  const rest = createDiscordRest({
    token: options.token,
    apiUrl: options.apiUrl,
    timeoutMs: restTimeoutMs,
    retries: options.restRetries ?? 0,
  });
  return {
    poster: createRestPoster({ rest, restTimeoutMs }),
    channelAccess: createRestChannelAccess(rest),
    close: () => closeDiscordRest(rest),
  };
}
