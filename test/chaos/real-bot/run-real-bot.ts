/**
 * One chaos seed on the RUNNING bot, on the real clock (test/chaos/README.md, "Real-bot seeds"): the real entry
 * point as a child process (bot-life.ts) with its real Bolt (Socket Mode) and discord.js (gateway) clients, against
 * the fake Slack and Discord (chat-fakes.ts) behind the seed's wire (fault-proxy.ts), the simulator in this
 * process, a SQLite file as the store. The seed's schedule, pressed into about a minute (real-schedule.ts),
 * is driven only from outside: supporters added to the simulator, API faults through its controls, channels
 * closed through the fakes', kill -9 and SIGSTOP of the process. The record is ground truth (the fakes' channels
 * as they changed, the wire's journal, the simulator, the delivery records as they landed in the file), judged by
 * the same judge as the virtual-clock seeds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '../../../src/simulator/index.js';
import { type Entry, tsxEntry } from '../../journeys/harness/bot-process.js';
import { waitUntil } from '../../support/wait-until.js';
import { doubtBoundMs, judge } from '../judge.js';
import { PlatformFaults } from '../platform-faults.js';
import { ChannelTimeline } from '../platforms/channel-timeline.js';
import type { JournalEntry } from '../platforms/exchange.js';
import type { SeedRun } from '../run-seed.js';
import type { TimedFault } from '../vocabulary.js';
import { matches as killLandsOn } from '../world/fault-director.js';
import { type Disruption, displayNamesIn, type WorldRecord } from '../world/world-record.js';
import { botLife } from './bot-life.js';
import { type ChaosFakes, realBotSecrets, startChaosFakes } from './chat-fakes.js';
import { startFaultProxy } from './fault-proxy.js';
import { watchLedger } from './ledger-watch.js';
import { pressFault, realBotSchedule } from './real-schedule.js';

export const realBotProject = 'chaos-kiosk';
/** How long the channels must stand complete, with nothing in flight, before the seed ends (a late copy's removal). */
const quietMs = 6_000;
/**
 * Longest wait after the schedule's last moment for the channels to show every name and the doubts to close: a
 * delivery that went in doubt at that moment (a kill as a batch went out) is allowed the doubt bound, and a Slack
 * doubt without message events is decided about 100 s after its attempt (its 90 s late-landing span and the clock
 * margin). At 100 s the watch ended before such a batch could be decided and judged its names missed (seed 3).
 */
const drainLimitMs = doubtBoundMs + quietMs + 4_000;
/** How long a kill armed for the next post, batch or look waits for one before it lands anyway. */
const armedKillMs = 10_000;

export interface RealBotOptions {
  /** tsx on `src/main.ts` (default) or the compiled `dist/src/main.js`. */
  readonly entry?: Entry;
  /**
   * Where the wall clock's minute (when batched channels post) falls in the schedule, in ms from its start
   * (default: wherever the bot's start puts it; `CHAOS_MINUTE_AT_MS`). The schedule waits up to a minute for it.
   */
  readonly minuteAtMs?: number;
  /**
   * Another draw of the seed's per-request weather (which posts and looks meet a fault), the same in every run
   * (default 0: the seed's own; `CHAOS_WEATHER`): a failure met under one draw replays under it.
   */
  readonly weatherDraw?: number;
}

type KillFault = Extract<TimedFault, { kind: 'kill' }>;

function apiFault(sim: Simulator, fault: Extract<TimedFault, { kind: 'api' }>): void {
  const { n } = fault;
  if (fault.fault === '5xx') sim.faults.serverError({ n, status: 503 });
  else if (fault.fault === '429') sim.faults.rateLimitStorm({ n, retryAfterSeconds: Math.min(10, n * 2) });
  else if (fault.fault === 'slow') sim.faults.slow({ n, delayMs: 20 });
  else if (fault.fault === 'shift')
    sim.faults.shiftBetweenPages({ path: '/fundings', n, insert: 1, remove: 0 });
  else sim.faults.malformedJson({ path: '/fundings', n });
}

export async function runRealBotSeed(seed: number, options: RealBotOptions = {}): Promise<SeedRun> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), `fundbot-chaos-real-${seed}-`));
  const storeFile = join(dir, 'data', 'fundbot.sqlite');
  const readAt = new Map<string, number>();
  // The schedule's shape (channels, weather) is known now; its times are set once the bot runs.
  let { schedule, leftOut } = realBotSchedule(seed, Date.now());
  let faults: PlatformFaults | undefined;
  const sim = await startSimulator({
    seed,
    projects: [
      {
        linkCaption: realBotProject,
        title: 'Chaos Kiosk',
        currency: 'EUR',
        plan: 'pro',
        supporters: Array.from({ length: 5 }, (_, i) => ({
          displayName: `Early ${i + 1}`,
          at: Date.now() - (i + 1) * 3_600_000,
        })),
      },
    ],
    // The journeys' generous limits: the engine then polls at its 1 s floor.
    limits: { pro: { perMinute: 10_000, perDay: 1_000_000 } },
    onReply: (reply) => {
      if (reply.status !== 200 || !reply.path.endsWith('/fundings')) return;
      for (const name of displayNamesIn(reply.body)) if (!readAt.has(name)) readAt.set(name, reply.sentAt);
    },
  });
  const journal: JournalEntry[] = [];
  const disruptions: Disruption[] = [];
  const notes: string[] = [...leftOut.map((l) => `left out on the running bot: ${l}`)];
  const timeline = new ChannelTimeline();
  const armedKills: KillFault[] = [];
  const timers: NodeJS.Timeout[] = [];
  let fakes: ChaosFakes | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    fakes = await startChaosFakes(schedule);
    const chat = fakes;
    cleanups.push(() => chat.close());
    let life: ReturnType<typeof botLife> | undefined;
    const proxy = (platform: 'slack' | 'discord', target: string) =>
      startFaultProxy({
        platform,
        target,
        faults: () => faults,
        press: pressFault,
        weatherDraw: options.weatherDraw ?? Number(process.env['CHAOS_WEATHER'] ?? 0),
        journal,
        process: () => life?.name ?? 'none',
        received: (entry) => {
          const kill = armedKills.find((k) => killLandsOn(k, entry));
          if (!kill || !life) return;
          armedKills.splice(armedKills.indexOf(kill), 1);
          life.kill(kill.restartAfterMs ?? 1_000);
        },
      });
    const slackProxy = await proxy('slack', chat.slack.url);
    const discordProxy = await proxy('discord', chat.discord.apiUrl.replace(/\/api$/, ''));
    cleanups.push(
      () => slackProxy.close(),
      () => discordProxy.close(),
    );

    // What the channels show, watched from outside (a Discord thread counts in the channel it was opened in).
    const threadParent = (id: string) => {
      for (const [channel, list] of chat.discord.channelMessages)
        if (list.some((m) => m['id'] === id)) return threadParent(channel);
      return id;
    };
    const observe = () => {
      const now = Date.now();
      timeline.observe(now, 'slack', chat.slack.messages);
      timeline.observe(now, 'discord', chat.discord.channelMessages, threadParent);
    };
    const observer = setInterval(observe, 50);
    cleanups.push(() => clearInterval(observer));
    const ledger = watchLedger(storeFile);
    cleanups.push(() => ledger.stop());

    const projectKey = sim.issueProjectKey(realBotProject);
    const config = {
      api: { baseUrl: sim.url },
      store: { url: `sqlite://${storeFile}` },
      projects: [{ linkCaption: realBotProject, apiKeyEnv: 'CHAOS_KIOSK_API_KEY' }],
      slack: { enabled: true, mode: 'socket', apiUrl: `${slackProxy.url}/api/` },
      discord: { enabled: true, apiUrl: `${discordProxy.url}/api` },
      digest: { enabled: false },
      http: { enabled: false },
    };
    const configPath = join(dir, 'fundbot.config.json');
    writeFileSync(configPath, JSON.stringify(config));
    life = botLife({
      entry: options.entry ?? tsxEntry,
      cwd: dir,
      env: {
        FUNDBOT_CONFIG: configPath,
        CHAOS_KIOSK_API_KEY: projectKey,
        SLACK_BOT_TOKEN: realBotSecrets.slackBotToken,
        SLACK_APP_TOKEN: realBotSecrets.slackAppToken,
        DISCORD_TOKEN: chat.discord.token,
      },
      disruptions,
      notes,
      connection: () => {
        const identified = chat.discord.gatewayReceived.filter((p) => p.op === 2).length;
        return async () => {
          await waitUntil(
            'the gateway IDENTIFY',
            () => chat.discord.gatewayReceived.filter((p) => p.op === 2).length > identified,
            { timeoutMs: 30_000 },
          );
          await waitUntil('a Socket Mode connection', () => chat.slack.socketConnections > 0, {
            timeoutMs: 30_000,
          });
        };
      },
    });
    const bot = life;
    cleanups.push(() => bot.stop());
    await bot.start();
    await chat.subscribe(realBotProject);
    await waitUntil(
      'the first reads',
      () => sim.requests.some((r) => r.path === `/project/${realBotProject}/fundings` && r.status === 200),
      { timeoutMs: 30_000 },
    );

    // A replay may place the wall clock's minute (where batches go out) at a chosen point of the schedule.
    const minuteAt = options.minuteAtMs ?? Number(process.env['CHAOS_MINUTE_AT_MS'] ?? Number.NaN);
    if (Number.isFinite(minuteAt)) {
      const wait = (60_000 - ((Date.now() + minuteAt) % 60_000)) % 60_000;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    // The schedule on the real clock from now.
    ({ schedule, leftOut } = realBotSchedule(seed, Date.now()));
    faults = new PlatformFaults(schedule);
    const truth: { name: string; at: number }[] = [];
    const at = (time: number, run: () => void) =>
      timers.push(setTimeout(run, Math.max(0, time - Date.now())));
    for (const arrival of schedule.arrivals)
      at(arrival.at, () => {
        sim.project(realBotProject).addSupporter({ displayName: arrival.name });
        truth.push({ name: arrival.name, at: Date.now() });
      });
    for (const fault of schedule.faults) at(fault.at, () => applyFault(fault));
    function applyFault(fault: TimedFault): void {
      const now = Date.now();
      switch (fault.kind) {
        case 'kill':
          if (fault.moment === 'any' || fault.moment === 'commit' || fault.moment === 'digest')
            bot.kill(fault.restartAfterMs ?? 1_000);
          else {
            // Armed for the next such request; one that does not come within `armedKillMs` lands then.
            armedKills.push(fault);
            at(now + armedKillMs, () => {
              if (!armedKills.includes(fault)) return;
              armedKills.splice(armedKills.indexOf(fault), 1);
              notes.push(`kill at the next ${fault.moment} found none within ${armedKillMs} ms: killed then`);
              bot.kill(fault.restartAfterMs ?? 1_000);
            });
          }
          return;
        case 'pause':
          bot.pause(fault.forMs);
          return;
        case 'access':
          chat.setAccess(fault, false);
          disruptions.push({
            from: now,
            to: now + fault.forMs,
            what: 'access',
            channel: `${fault.platform}:${fault.channel}`,
            looksRefused: fault.platform === 'slack' && fault.problem === 'not_in_channel',
          });
          at(now + fault.forMs, () => chat.setAccess(fault, true));
          return;
        case 'api':
          apiFault(sim, fault);
          return;
        default:
          return;
      }
    }

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, schedule.end - Date.now())));
    for (const kill of armedKills.splice(0))
      notes.push(`kill at the next ${kill.moment} (+${kill.at - schedule.start} ms) never found its moment`);
    await bot.steady();
    // Drain: every name shown in every channel, no delivery in doubt, nothing on the wire, for `quietMs`.
    const settled = () => {
      observe();
      const current = timeline.current();
      const complete = schedule.channels.every((c) => {
        const text = (current.get(`${c.platform}:${c.id}`) ?? []).map((m) => m.text).join('\n');
        return truth.every((t) => text.includes(t.name));
      });
      return complete && ledger.openDoubts() === 0 && slackProxy.pending + discordProxy.pending === 0;
    };
    let quietSince: number | undefined;
    await waitUntil(
      'the channels settled',
      () => {
        if (!settled()) quietSince = undefined;
        else quietSince ??= Date.now();
        return quietSince !== undefined && Date.now() - quietSince >= quietMs;
      },
      { timeoutMs: drainLimitMs, everyMs: 250 },
    ).catch(() => notes.push(`not settled ${drainLimitMs / 1000} s after the schedule's end`));
    await bot.stop();
    ledger.stop();
    observe();
    const record: WorldRecord = {
      schedule,
      timeline,
      journal,
      truth,
      readAt,
      deliveryWrites: ledger.writes,
      disruptions,
      notes,
      log: bot.log(schedule.start).slice(process.env['CHAOS_LOG_ALL'] ? -3000 : -300),
      endedAt: Date.now(),
      apiRequests: countBy(sim.requests.map((r) => r.path.split('/').pop() ?? '')),
    };
    return { verdict: judge(record), schedule, record, wallMs: Date.now() - started };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    for (const cleanup of cleanups.reverse()) await cleanup();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
