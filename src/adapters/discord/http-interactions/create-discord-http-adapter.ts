import type { ChannelAccess, CommandCore } from '../../../core/index.js';
import type { ChannelPoster } from '../../../delivery/index.js';
import { type Clock, systemClock } from '../../../lib/clock.js';
import { type Claims, memoryClaims } from '../../../lib/coordination/claims.js';
import { closeDiscordRest, createDiscordPostingRest, createDiscordRest } from '../discord-rest.js';
import { type DiscordAdapterLogger, silentLogger } from '../logger.js';
import { createInteractionHandler } from './handle-interaction.js';
import { type InteractionsServer, startInteractionsServer } from './interactions-server.js';
import { createInteractionReplayGuard } from './replay-guard.js';
import { createRestChannelAccess } from './rest-channel-access.js';
import { createRestPoster } from './rest-poster.js';
import { discordPublicKey } from './verify-signature.js';

/** Where Discord posts interactions unless configured otherwise. */
export const defaultInteractionsPath = '/discord/interactions';

export interface DiscordHttpAdapterOptions {
  /** The bot token (DISCORD_TOKEN), for posting notices. Never logged. */
  readonly token: string;
  /** Developer Portal → General Information → Application ID: the interaction webhooks live under it. */
  readonly applicationId: string;
  /** Developer Portal → General Information → Public Key (64 hex characters). */
  readonly publicKey: string;
  readonly core: CommandCore;
  readonly logger?: DiscordAdapterLogger;
  /** Where to listen (default port 3001 on all interfaces); Discord needs it reachable over HTTPS. */
  readonly port?: number;
  readonly host?: string;
  /** Default {@link defaultInteractionsPath}. */
  readonly path?: string;
  /** REST base URL without the version (default Discord's `https://discord.com/api`); tests point it at a fake. */
  readonly restApiUrl?: string;
  /** Checks signature timestamps and times the deferral; Discord's 3 s are wall-clock time. */
  readonly clock?: Clock;
  /** How long after a request's arrival a command may run before its answer is deferred (default 0.5 s). */
  readonly deferAfterMs?: number;
  readonly restTimeoutMs?: number;
  readonly restRetries?: number;
  /** How long `stop()` waits for deferred answers in flight (default 5 s). */
  readonly drainTimeoutMs?: number;
  /**
   * Where handled interaction ids are claimed, so a replay is refused: the replicas' Redis
   * claims, or claims in the store of a single process. Default: this process's memory.
   */
  readonly claims?: Claims;
}

export interface DiscordHttpAdapter {
  /** Starts listening for interactions. Opens no gateway connection. */
  start(): Promise<void>;
  /** Stops taking interactions, then lets deferred answers finish (bounded). */
  stop(): Promise<void>;
  /** Posts notices through REST with the idempotent nonce. Usable without start(). */
  readonly poster: ChannelPoster;
  /** For /subscribe: whether the bot can see the channel (one REST request). */
  readonly channelAccess: ChannelAccess;
  /** Once started: the local URL of the endpoint (the Developer Portal needs its public HTTPS twin). */
  readonly url: string | undefined;
}

/**
 * Discord over HTTP interactions instead of the gateway: Discord signs each
 * interaction and posts it to this endpoint, so any number of replicas behind a
 * load balancer can answer without one of them holding a gateway session.
 * Commands reach the core exactly as on the gateway (shared
 * interaction-invocation); answers are the HTTP response or, when slow, a
 * deferral completed through the interaction webhook; notices go through REST.
 */
/** Deferral delay of HTTP interactions, from the request's arrival. */
export const defaultHttpDeferAfterMs = 500;

export function createDiscordHttpAdapter(options: DiscordHttpAdapterOptions): DiscordHttpAdapter {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const publicKey = discordPublicKey(options.publicKey);
  const rest = createDiscordRest({
    token: options.token,
    apiUrl: options.restApiUrl,
    timeoutMs: options.restTimeoutMs ?? 15_000,
    retries: options.restRetries ?? 3,
  });
  // Notices go through a REST client without retries: a retried post is a repeat the pipeline would not know
  // of (see createDiscordPoster); it repeats itself, with the same nonce, and watches for a late copy. Nor does it
  // wait out a rate limit: the delivery lane does, on its clock (discordPostingRestOptions).
  const postingRest = createDiscordPostingRest({
    token: options.token,
    apiUrl: options.restApiUrl,
    timeoutMs: options.restTimeoutMs ?? 15_000,
  });
  const handle = createInteractionHandler({
    core: options.core,
    rest,
    applicationId: options.applicationId,
    clock,
    logger,
    // Half a second after arrival: a CPU-busy process still answers well inside Discord's 3 s (issue 24).
    deferAfterMs: options.deferAfterMs ?? defaultHttpDeferAfterMs,
    secrets: [options.token],
  });
  const replayGuard = createInteractionReplayGuard(options.claims ?? memoryClaims(clock, 'discord-http'));
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    const tracked = work.catch(() => {}).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };
  let server: InteractionsServer | undefined;

  return {
    poster: createRestPoster({ rest: postingRest, restTimeoutMs: options.restTimeoutMs ?? 15_000 }),
    channelAccess: createRestChannelAccess(rest),
    get url() {
      return server?.url;
    },
    async start() {
      server = await startInteractionsServer({
        host: options.host,
        port: options.port ?? 3001,
        path: options.path ?? defaultInteractionsPath,
        publicKey,
        clock,
        logger,
        handle,
        track,
        replayGuard,
      });
      logger.info({ url: server.url }, 'discord interactions endpoint listening (no gateway in http mode)');
    },
    async stop() {
      const closing = server?.close();
      server = undefined;
      await closing;
      const timer = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight]),
        clock.sleep(options.drainTimeoutMs ?? 5_000, timer.signal).catch(() => undefined),
      ]);
      timer.abort();
      await closeDiscordRest(rest);
      await closeDiscordRest(postingRest);
    },
  };
}
