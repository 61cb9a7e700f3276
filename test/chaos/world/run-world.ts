/**
 * Runs one seed's world on a virtual clock: the simulator with the seed's project, the shared store, Slack and
 * Discord as models, one to three fundbot processes (bot-process.ts), the subscribed channels set up as an admin
 * would, the supporters arriving and the faults landing as the schedule says. The clock moves only when nothing
 * runs (settle.ts), straight to the next timer or scheduled moment. Returns the record the judge reads.
 */

import { settingsStampKey } from '../../../src/app/wire-fundbot.js';
import {
  createDailyThreadSettings,
  createPacingSettings,
  createSubscriptionStore,
} from '../../../src/core/index.js';
import { memoryLease } from '../../../src/engine/lease/lease.js';
import { withChangeStamp } from '../../../src/lib/change-stamp.js';
import type { ClaimEntry } from '../../../src/lib/coordination/claims.js';
import { memoryStore } from '../../../src/lib/store.js';
import type { Logger } from '../../../src/ops/index.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { PlatformFaults } from '../platform-faults.js';
import { ChannelTimeline } from '../platforms/channel-timeline.js';
import { createDiscordModel } from '../platforms/discord-model.js';
import type { JournalEntry } from '../platforms/exchange.js';
import { createSlackModel } from '../platforms/slack-model.js';
import { storeWithFaults } from '../store-faults.js';
import type { Schedule } from '../vocabulary.js';
import { type BotProcess, startBotProcess, type WorldParts } from './bot-process.js';
import { channelRef, FaultDirector } from './fault-director.js';
import { deliverOwnMessageEvents, type EventReceiver } from './own-message-events.js';
import { ChaosClock, settle } from './settle.js';
import {
  type DeliveryWrite,
  type Disruption,
  displayNamesIn,
  type WorldRecord,
  watchDeliveryWrites,
} from './world-record.js';

export const chaosProject = 'chaos-kiosk';
const logLimit = 3_000;
/** Livelocks (2,000 turns at one moment each) in a row that make a timer spin: 20 ms of the world's time. */
const spinLimit = 20;

/** A Logger that keeps warnings and errors (with the world's time and the process) for a failing seed's report. */
function recordingLogger(lines: string[], clock: ChaosClock, start: number, name: string): Logger {
  const keep = (level: string) => (details: unknown, message?: string) => {
    if (lines.length >= logLimit) return;
    const text = typeof details === 'string' ? details : `${message ?? ''} ${JSON.stringify(details)}`;
    lines.push(`+${((clock.now() - start) / 1000).toFixed(1)}s ${name} ${level} ${text}`);
  };
  const logger: Logger = {
    debug: process.env['CHAOS_DEBUG'] ? keep('debug') : () => {},
    info: process.env['CHAOS_DEBUG'] ? keep('info') : () => {},
    warn: keep('warn'),
    error: keep('error'),
    child: () => logger,
  };
  return logger;
}

/** `lateLanding` overrides CHAOS_LATE_LANDING for this world (platform-faults.ts). */
export async function runWorld(
  schedule: Schedule,
  options: { readonly lateLanding?: boolean } = {},
): Promise<WorldRecord> {
  const clock = new ChaosClock(schedule.start);
  const readAt = new Map<string, number>();
  const disruptions: Disruption[] = [];
  const sim = await startSimulator({
    clock,
    seed: schedule.seed,
    projects: [
      {
        linkCaption: chaosProject,
        title: 'Chaos Kiosk',
        currency: 'EUR',
        supporters: Array.from({ length: 5 }, (_, i) => ({
          displayName: `Early ${i + 1}`,
          at: schedule.start - (i + 1) * 3_600_000,
        })),
      },
    ],
    onReply: (reply) => {
      if (reply.status !== 200 || !reply.path.endsWith('/fundings')) return;
      for (const d of disruptions)
        if (d.what === 'api' && d.to === Number.POSITIVE_INFINITY) d.to = reply.sentAt;
      for (const name of displayNamesIn(reply.body)) if (!readAt.has(name)) readAt.set(name, reply.sentAt);
    },
  });
  let progress = 0;
  const deliveryWrites: DeliveryWrite[] = [];
  const storeFaults = storeWithFaults(watchDeliveryWrites(memoryStore(), clock, deliveryWrites), clock);
  const counted = storeFaults.store;
  const store: typeof counted = {
    ...counted,
    get(key, schema) {
      progress += 1;
      return counted.get(key, schema);
    },
    set(key, value, ttlMs) {
      progress += 1;
      return counted.set(key, value, ttlMs);
    },
  };
  const timeline = new ChannelTimeline();
  const slack = createSlackModel(clock, { lookIntervalMs: 60_000, timeline });
  const discordIds = schedule.channels.filter((c) => c.platform === 'discord').map((c) => c.id);
  const discord = createDiscordModel(clock, {
    channels: discordIds,
    nonceWindowMs: schedule.nonceWindowMs,
    timeline,
  });
  const journal: JournalEntry[] = [];
  const notes: string[] = [];
  const log: string[] = [];
  (globalThis as { __chaosLog?: string[] }).__chaosLog = log;

  await subscribeChannels(schedule, store, clock);

  const processes = new Map<number, BotProcess>();
  const startedAt = new Map<BotProcess, number>();
  const everyProcess: BotProcess[] = [];
  const incarnations = new Map<number, number>();
  const actions: { at: number; order: number; run: () => void }[] = [];
  let order = 0;
  const at = (time: number, run: () => void) => {
    order += 1;
    actions.push({ at: time, order, run });
    actions.sort((a, b) => a.at - b.at || a.order - b.order);
  };
  let director: FaultDirector | undefined;
  const parts: WorldParts = {
    clock,
    schedule,
    sim,
    linkCaption: chaosProject,
    projectKey: sim.issueProjectKey(chaosProject),
    store,
    slack,
    discord,
    faults: new PlatformFaults(schedule, options.lateLanding),
    journal,
    ...(schedule.replicas > 1
      ? { fleet: { lease: memoryLease(clock), claims: new Map<string, ClaimEntry>() } }
      : {}),
    liveReplicas: () => [...processes.values()].filter((p) => p.life.state !== 'dead').length,
    received: (entry, life) => {
      progress += 1;
      director?.received(entry, life);
    },
    observer: {},
    logger: (name) => recordingLogger(log, clock, schedule.start, name),
  };
  let ownEvents: { readonly started: (process: BotProcess) => void } | undefined;
  const start = (slot: number) => {
    const incarnation = (incarnations.get(slot) ?? 0) + 1;
    incarnations.set(slot, incarnation);
    const process = startBotProcess(parts, slot, incarnation);
    process.life.onStoreStep = (step, phase) => director?.storeStep(process.life, step, phase);
    processes.set(slot, process);
    startedAt.set(process, clock.now());
    everyProcess.push(process);
    ownEvents?.started(process);
  };
  const events = { sent: 0, lost: 0 };
  // CHAOS_OWN_EVENTS=0: the platforms send no own-message events (the look path alone, as before they came).
  if (process.env['CHAOS_OWN_EVENTS'] !== '0')
    ownEvents = deliverOwnMessageEvents({
      clock,
      schedule,
      slack,
      discord,
      receivers: () =>
        [...processes.entries()]
          .sort(([a], [b]) => a - b)
          .map(
            ([slot, process]): EventReceiver => ({ slot, process, startedAt: startedAt.get(process) ?? 0 }),
          ),
      tally: events,
    });
  director = new FaultDirector({
    clock,
    sim,
    linkCaption: chaosProject,
    slack,
    discord,
    store: storeFaults,
    disruptions,
    notes,
    processes,
    restart: (slot) => {
      notes.push(`restart slot ${slot} at +${clock.now() - schedule.start}`);
      start(slot);
    },
    at,
  });
  for (const arrival of schedule.arrivals) {
    at(arrival.at, () => sim.project(chaosProject).addSupporter({ displayName: arrival.name }));
  }
  director.plan(schedule.faults);
  for (let slot = 0; slot < schedule.replicas; slot += 1) start(slot);

  const quiet = {
    progress: () => progress + journal.length,
    pending: () =>
      [...processes.values()].filter((p) => p.life.running && p.api.inFlight > 0).map((p) => p.api.idle()),
  };
  let spin: string | undefined;
  try {
    let sameTime = 0;
    let livelocks = 0;
    while (clock.now() < schedule.end) {
      await settle(clock, quiet);
      const next = Math.min(
        clock.nextWakeAt ?? Number.POSITIVE_INFINITY,
        actions[0]?.at ?? Number.POSITIVE_INFINITY,
        schedule.end,
      );
      if (next <= clock.now()) {
        sameTime += 1;
        if (sameTime > 2_000) {
          notes.push(`livelock at +${clock.now() - schedule.start} ms: the world moved the clock by 1 ms`);
          clock.set(clock.now() + 1);
          sameTime = 0;
          livelocks += 1;
          // A timer due at once, again and again (seed 8: a lane woken for work it would not take), crawls a
          // millisecond per 2,000 turns: hours of wall time. The world ends here and the judge says why.
          if (livelocks >= spinLimit) {
            spin = `a timer spin from +${clock.now() - spinLimit - schedule.start} ms: something asked to be woken at once, again and again (${clock.pendingSleepers} timers pending); the world stopped at +${clock.now() - schedule.start} ms`;
            break;
          }
        }
      } else {
        sameTime = 0;
        livelocks = 0;
      }
      clock.set(Math.max(next, clock.now()));
      while (actions[0] && actions[0].at <= clock.now()) actions.shift()?.run();
    }
    if (!spin) await settle(clock, quiet);
    notes.push(`own-message events: ${events.sent} delivered, ${events.lost} lost`);
    for (const kill of director.unfired())
      notes.push(`kill at ${kill.moment} (+${kill.at - schedule.start} ms) never found its moment`);
    const baseline = schedule.start + 60_000;
    const truth = sim
      .project(chaosProject)
      .snapshot()
      .fundings.filter((f) => f.support_timestamp * 1000 >= baseline)
      .map((f) => ({ name: f.user.display_name, at: f.support_timestamp * 1000 }));
    return {
      schedule,
      timeline,
      journal,
      truth,
      readAt,
      deliveryWrites,
      disruptions,
      notes,
      log,
      endedAt: clock.now(),
      ...(spin ? { spin } : {}),
      apiRequests: countBy(sim.requests.map((r) => r.path.split('/').pop() ?? '')),
    };
  } finally {
    for (const process of everyProcess) await process.close();
    await sim.close();
  }
}

/** The admin's commands before the bot starts: each channel subscribed to supporters (and the digest), paced. */
async function subscribeChannels(
  schedule: Schedule,
  store: ReturnType<typeof memoryStore>,
  clock: ChaosClock,
) {
  const settings = withChangeStamp(store, settingsStampKey, () => `chaos-${clock.now()}`);
  const subscriptions = createSubscriptionStore(settings, { clock });
  const pacing = createPacingSettings(settings);
  const threads = createDailyThreadSettings(settings);
  for (const channel of schedule.channels) {
    const ref = channelRef(channel.platform, channel.id);
    await subscriptions.subscribe(
      ref,
      chaosProject,
      channel.digest ? ['supporters', 'digest'] : ['supporters'],
      'U0ADMIN',
    );
    await pacing.setKind(ref, 'supporters', {
      mode: channel.pacing === 'batched' ? 'batched' : channel.pacing,
    });
    if (channel.dailyThread) await threads.set(ref, true);
  }
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
