/**
 * One fundbot process of a chaos seed, built as src/app/start-bot.ts builds the real one (wireFundbot: the real
 * engine, command core and delivery pipeline; the real Slack and Discord posters and channel checks over their
 * real client libraries; the real digest scheduler), with everything the world must control injected: the
 * clock, the randomness, the store, the wire to the platforms and the API, leases and claims, all through the
 * process's life (process-life.ts). What differs from the real process, and why: the API client does not retry
 * by itself (a retry sleeping inside one call would hide it from the world's clock; the engine re-polls), the
 * digest's cron is a minute loop on the clock, the Slack channel check's client does not retry (its retries
 * sleep on the real clock) and neither waits a Discord rate limit out (see `rest` below), and nothing listens
 * for commands (the chaos is about notices).
 */
import { webApi } from '@slack/bolt';
import { REST } from 'discord.js';
import { Registry } from 'prom-client';
import { closeDiscordRest, discordPostingRestOptions } from '../../../src/adapters/discord/discord-rest.js';
import { createRestChannelAccess } from '../../../src/adapters/discord/http-interactions/rest-channel-access.js';
import { createRestPoster } from '../../../src/adapters/discord/http-interactions/rest-poster.js';
import {
  createSlackPoster,
  createSlackPostingClient,
} from '../../../src/adapters/slack/create-slack-poster.js';
import { webApiTimeoutMs } from '../../../src/adapters/slack/retry-policy.js';
import { createSlackChannelAccess } from '../../../src/adapters/slack/slack-channel-access.js';
import { createApiClient, parseProjectKey } from '../../../src/api/index.js';
import { type Wiring, wireFundbot } from '../../../src/app/wire-fundbot.js';
import type { DeliveryObserver } from '../../../src/delivery/index.js';
import { type CronLike, createDigestScheduler } from '../../../src/digest/digest-scheduler.js';
import type { Lease } from '../../../src/engine/lease/lease.js';
import type { Clock } from '../../../src/lib/clock.js';
import { type ClaimEntry, memoryClaims } from '../../../src/lib/coordination/claims.js';
import type { KeyValueStore } from '../../../src/lib/store.js';
import { observedStore } from '../../../src/lib/store-observed.js';
import { createMetrics, type Logger } from '../../../src/ops/index.js';
import type { Simulator } from '../../../src/simulator/index.js';
import type { ManualClock } from '../../support/manual-clock.js';
import { decisionRandom, type PlatformFaults } from '../platform-faults.js';
import type { DiscordModel } from '../platforms/discord-model.js';
import { chaosDiscord } from '../platforms/discord-model.js';
import { discordMakeRequest } from '../platforms/discord-transport.js';
import type { JournalEntry } from '../platforms/exchange.js';
import { chaosSlack, type SlackModel } from '../platforms/slack-model.js';
import { slackFetch } from '../platforms/slack-transport.js';
import { ProcessLife } from '../process-life.js';
import type { Schedule } from '../vocabulary.js';
import { type TrackedApi, trackedApi } from './tracked-api.js';

/** The Discord REST timeout fundbot configures (create-discord-rest-posting.ts). */
export const discordRestTimeoutMs = 15_000;

/** What every process of a seed shares: the world. */
export interface WorldParts {
  readonly clock: ManualClock;
  readonly schedule: Schedule;
  readonly sim: Simulator;
  readonly linkCaption: string;
  readonly projectKey: string;
  readonly store: KeyValueStore;
  readonly slack: SlackModel;
  readonly discord: DiscordModel;
  readonly faults: PlatformFaults;
  readonly journal: JournalEntry[];
  /** Replicas (a redis:// store in production): one lease table and one claims table for the fleet. */
  readonly fleet?: { readonly lease: Lease; readonly claims: Map<string, ClaimEntry> };
  liveReplicas(): number;
  /** A request reached a platform (kill triggers look at it). */
  received(entry: JournalEntry, life: ProcessLife): void;
  readonly observer: DeliveryObserver;
  readonly logger: (process: string) => Logger;
}

export interface BotProcess {
  readonly life: ProcessLife;
  readonly api: TrackedApi;
  readonly wiring: Wiring;
  /** Frees what outlives the world (sockets, the REST client's timers); the process is dead by then. */
  close(): Promise<void>;
}

/** @slack/web-api logs each failed request to the console: the chaos has its own journal of them. */
const quietWebApiLogger: webApi.Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName() {},
};

/** node-cron's every-minute tick (second 5) on the process's clock. */
function minuteCron(clock: Clock): CronLike {
  return {
    schedule(_expression, task) {
      let stopped = false;
      void (async () => {
        while (!stopped) {
          const now = clock.now();
          await clock.sleep(60_000 - (now % 60_000) + 5_000);
          if (!stopped) await task();
        }
      })();
      return {
        destroy() {
          stopped = true;
        },
      };
    },
  };
}

export function startBotProcess(parts: WorldParts, slot: number, incarnation: number): BotProcess {
  const name = `replica-${slot}.${incarnation}`;
  const life = new ProcessLife(name, slot);
  const clock = life.clock(parts.clock);
  const random = decisionRandom(parts.schedule.seed, 'process', slot, incarnation);
  const logger = parts.logger(name);
  const rawApi = createApiClient({
    baseUrl: parts.sim.url,
    clock,
    random,
    maxRetries: 0,
    maxRateLimitRetries: 0,
  });
  const api = trackedApi(rawApi, life);
  // As start-bot.ts: every store operation bounded (5 s) on the process's clock.
  const store = observedStore(life.store(parts.store), { clock, onOutcome: () => {} });
  const fleet = parts.fleet;
  const wiring = wireFundbot({
    api: api.api,
    store,
    clock,
    random,
    logger,
    metrics: createMetrics(new Registry(), () => clock.now()),
    version: 'chaos',
    projects: [{ linkCaption: parts.linkCaption, key: parseProjectKey(parts.projectKey) }],
    defaultLocale: 'en',
    digestTimeZone: 'UTC',
    deliveryObserver: parts.observer,
    ...(fleet
      ? {
          lease: life.lease(fleet.lease),
          replicaId: name,
          claims: life.claims(memoryClaims(clock, name, fleet.claims)),
          postingReplicas: () => parts.liveReplicas(),
          engineOptions: { leaseTtlMs: 30_000 },
        }
      : {}),
  });

  const wire = {
    clock: parts.clock,
    life,
    journal: parts.journal,
    received: (e: JournalEntry) => parts.received(e, life),
  };
  const slackPoster = createSlackPoster({
    client: createSlackPostingClient(chaosSlack.botToken, {
      slackApiUrl: chaosSlack.apiUrl,
      fetch: slackFetch(parts.slack, parts.faults, { ...wire, timeoutMs: 10_000 }),
      logger: quietWebApiLogger,
    }),
    clock,
  });
  const slackCheck = new webApi.WebClient(chaosSlack.botToken, {
    slackApiUrl: chaosSlack.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: webApiTimeoutMs,
    fetch: slackFetch(parts.slack, parts.faults, { ...wire, timeoutMs: webApiTimeoutMs }),
    logger: quietWebApiLogger,
  });
  wiring.registerAdapter(slackPoster, createSlackChannelAccess(slackCheck, logger));
  // The notice posters' REST client as production builds it (no retries, a rate limit rejects and the lane waits
  // it out on the clock), with three changes that keep the wall clock out of the seed: the world's clock times the
  // requests out (discord.js's own timer would fire on the real clock), the per-second global self-limit is off
  // (it counts real seconds, of which a world on the virtual clock spends few: seed 1 slept through 950 virtual
  // seconds of it; the model sets no global limit), and /subscribe's check shares the client, rejecting a rate
  // limit rather than waiting it out on the real clock (the access watch checks again later).
  const rest = new REST({
    ...discordPostingRestOptions({ apiUrl: chaosDiscord.apiUrl, timeoutMs: discordRestTimeoutMs }),
    timeout: 3_600_000,
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
    makeRequest: discordMakeRequest(parts.discord, parts.faults, {
      ...wire,
      timeoutMs: discordRestTimeoutMs,
    }),
  }).setToken(chaosDiscord.token);
  wiring.registerAdapter(
    createRestPoster({ rest, restTimeoutMs: discordRestTimeoutMs }),
    createRestChannelAccess(rest),
  );
  const digest = createDigestScheduler({
    readModel: wiring.engine.readModel,
    subscriptions: wiring.subscriptions,
    localeFor: (channel) => wiring.core.localeFor(channel),
    post: (request) => wiring.delivery.postScheduled(request),
    clock,
    time: parts.schedule.digestTime,
    timeZone: 'UTC',
    projects: () => [parts.linkCaption],
    milestonesFor: wiring.milestonesFor,
    logger,
    cron: minuteCron(clock),
  });
  // Started in the background: a store that is down or paused at start is the process's own trouble.
  void (async () => {
    await wiring.delivery.start();
    await wiring.engine.start();
    digest.start();
    await digest.sendMissedOnStart();
  })().catch((error: unknown) => logger.error({ err: String(error) }, 'chaos: process start failed'));

  return {
    life,
    api,
    wiring,
    async close() {
      life.kill();
      await closeDiscordRest(rest);
      await rawApi.close();
    },
  };
}
