/**
 * What the steps of one chat journey share: the world, the platform driver, the running fundbot process and
 * what earlier steps found out. Also how fundbot is started for the journey: a config file and an environment,
 * nothing else.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { FundingKey } from '../../../src/simulator/index.js';
import { waitUntil } from '../../support/wait-until.js';
import { type BotProcess, type Entry, killAllBots, outputTail, startBotProcess } from './bot-process.js';
import type { ChannelPost, ChatDriver, CommandRun, Platform } from './chat-driver.js';
import { journeyProject } from './journey-project.js';
import {
  digestTimeZoneAwayFromMidnight,
  type JourneyWorld,
  localHourMinute,
  startJourneyWorld,
} from './journey-world.js';

export interface ChatJourneyOptions<D extends ChatDriver = ChatDriver> {
  /** Short name for temp dirs and logs, e.g. "slack-socket". */
  readonly name: string;
  readonly platform: Platform;
  /** How commands reach fundbot: Discord's gateway or HTTP interactions, Slack's Socket Mode or HTTP. */
  readonly transport: 'gateway' | 'socket' | 'http';
  /** Which entry point runs; a function, since the compiled tree is built in a beforeAll. */
  readonly entry: () => Entry;
  readonly startDriver: () => Promise<D>;
  /** Steps only this platform and mode have, run while the first process is up (after the subscription). */
  readonly platformSteps?: (state: ChatJourneyState<D>) => void;
}

export interface ChatJourneyState<D extends ChatDriver = ChatDriver> {
  readonly world: JourneyWorld;
  readonly driver: D;
  /** The fundbot process running now (the second one after the restart). */
  bot: BotProcess;
  /** Every process the journey started, in order. */
  readonly bots: BotProcess[];
  readonly timeZone: string;
  readonly opsPort: number;
  /** What earlier steps left for later ones. */
  readonly found: {
    firstSubscribe?: CommandRun;
    readmeSupporterKey?: FundingKey;
    readmeNotice?: ChannelPost;
    hostileWallPostId?: number;
    hostileNotice?: ChannelPost;
    threadParent?: ChannelPost;
    heldBackerAddedAt?: number;
    heldBatch?: ChannelPost;
    /** The minute the batch and the quiet-hours summary were held in: both, and the digest, are due after it. */
    quietStartedAt?: number;
    quietSummary?: ChannelPost;
    /** How many log lines the first process had written when it got SIGTERM. */
    linesBeforeShutdown?: number;
  };
}

/**
 * Registers the hooks of one journey file: the world and the driver before the first step, every child killed
 * and every server closed after the last, and a failed step's report carrying the tail of fundbot's output.
 */
export function journeyHooks<D extends ChatDriver>(options: ChatJourneyOptions<D>): ChatJourneyState<D> {
  const state = {} as { -readonly [K in keyof ChatJourneyState<D>]: ChatJourneyState<D>[K] };
  beforeAll(async () => {
    state.world = await startJourneyWorld(options.name);
    state.driver = await options.startDriver();
    state.bots = [];
    state.timeZone = digestTimeZoneAwayFromMidnight();
    state.opsPort = await state.world.freePort();
    state.found = {};
  }, 60_000);
  afterEach((context) => {
    // A step marked it.fails is expected to fail: its output would only be noise.
    if (context.task.result?.state !== 'fail' || context.task.fails || !state.bot) return;
    console.error(`--- ${options.name}: fundbot's output (${state.bot.name}) ---\n${outputTail(state.bot)}`);
  });
  afterAll(async () => {
    killAllBots();
    await state.driver?.close();
    await state.world?.close();
  });
  return state;
}

/**
 * Starts fundbot the way an operator does: `fundbot.config.json` (the platform's section, the SQLite store in
 * the journey's directory, the digest at `digestTime` in the journey's time zone, the health server on a free
 * port) and the environment (the project key as a secret file, the platform's tokens). Resolves once the bot
 * is reachable on the platform.
 */
export async function startFundbot<D extends ChatDriver>(
  state: ChatJourneyState<D>,
  options: { readonly entry: Entry; readonly digestTime: string; readonly name: string },
): Promise<BotProcess> {
  const { world, driver } = state;
  const configPath = world.writeConfig({
    api: { baseUrl: world.sim.url },
    store: { url: world.storeUrl },
    projects: [{ linkCaption: journeyProject, apiKeyEnv: 'SOLAR_KIOSK_API_KEY' }],
    ...(await driver.configSection()),
    digest: { enabled: true, time: options.digestTime, timeZone: state.timeZone },
    http: { enabled: true, port: state.opsPort },
  });
  const keyFile = world.writeFile('solar-kiosk.key', `${world.apiKey}\n`);
  const bot = startBotProcess({
    name: options.name,
    entry: options.entry,
    cwd: world.dir,
    env: { FUNDBOT_CONFIG: configPath, SOLAR_KIOSK_API_KEY_FILE: keyFile, ...driver.env() },
  });
  state.bot = bot;
  state.bots.push(bot);
  await driver.connected(bot);
  return bot;
}

/** A digest time that cannot come due while the first process runs (half an hour from now). */
export function digestTimeNotDueSoon(state: ChatJourneyState): string {
  return localHourMinute(Date.now() + 30 * 60_000, state.timeZone);
}

/** The posts whose text contains `needle`. */
export function postsWith(driver: ChatDriver, needle: string): ChannelPost[] {
  return driver.posts().filter((p) => p.text.includes(needle));
}

/** Waits for the first post whose text contains `needle`. */
export function waitForPost(driver: ChatDriver, needle: string, what: string, timeoutMs = 15_000) {
  return waitUntil(what, () => postsWith(driver, needle)[0], { timeoutMs: timeoutMs });
}

/** "€3,912" as the English notices write an amount in euros. */
export function euros(amount: number): string {
  return `€${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}
