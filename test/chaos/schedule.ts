/**
 * A seed's schedule: one PRNG (mulberry32 from the seed) draws the channels, the supporters' arrivals, the
 * background weather and the timed faults, in a fixed order, so a seed always means the same schedule. What the
 * bot does inside the schedule (the requests it makes, when) then meets faults decided per request by
 * platform-faults.ts, from the seed and the request's identity, not from the order of requests.
 */
import { fanName } from '../../bench/delivery-faults/score.js';
import { pick, type Random, randomInt, seededRandom } from '../../src/lib/random.js';
import type {
  Arrival,
  ChaosChannel,
  KillMoment,
  OwnEvents,
  Platform,
  RequestFaultKind,
  Schedule,
  Storm,
  TimedFault,
  Weather,
} from './vocabulary.js';

/** 2026-03-02 08:50 UTC: the digest (09:xx UTC) falls inside every seed. */
export const chaosStart = Date.UTC(2026, 2, 2, 8, 50);
const minute = 60_000;

export const slackChannelIds = ['C0CHAOS01', 'C0CHAOS02'] as const;
export const discordChannelIds = ['200000000000000771', '200000000000000772'] as const;

/** Options a caller may narrow (the real-bot seeds run shorter on the real clock). */
export interface ScheduleOptions {
  /** Most supporters (default 40). */
  readonly maxSupporters?: number;
  /** Longest arrival span (default 14 minutes). */
  readonly maxArrivalMs?: number;
  /** Time after the last arrival and fault for batches, re-checks and doubts to finish (default 20 minutes). */
  readonly drainMs?: number;
  /** Most replicas (default 3). */
  readonly maxReplicas?: number;
}

const chance = (random: Random, p: number) => random.next() < p;

function channels(random: Random): ChaosChannel[] {
  const pacing = () => pick(random, ['live', 'live', 'auto', 'batched'] as const);
  const draw = (platform: Platform, id: string): ChaosChannel => ({
    platform,
    id,
    pacing: pacing(),
    dailyThread: chance(random, 0.25),
    digest: chance(random, 0.35),
  });
  const slack = slackChannelIds.slice(0, randomInt(random, 1, 2)).map((id) => draw('slack', id));
  const discord = discordChannelIds.slice(0, randomInt(random, 1, 2)).map((id) => draw('discord', id));
  return [...slack, ...discord];
}

function arrivals(random: Random, from: number, options: ScheduleOptions): Arrival[] {
  const count = randomInt(random, 8, options.maxSupporters ?? 40);
  const span = randomInt(random, 3 * minute, options.maxArrivalMs ?? 14 * minute);
  const times: number[] = [];
  while (times.length < count) {
    const at = from + Math.floor(random.next() * span);
    // A burst: a few supporters within seconds (a launch, a shout-out).
    const burst = chance(random, 0.2) ? randomInt(random, 2, 6) : 1;
    for (let i = 0; i < burst && times.length < count; i += 1)
      times.push(at + i * randomInt(random, 200, 3_000));
  }
  return times.sort((a, b) => a - b).map((at, i) => ({ at, name: fanName(i + 1) }));
}

const faultKinds: readonly RequestFaultKind[] = [
  'error-before',
  'error-after',
  'rate-limited',
  'late-landing',
  'late-answer',
  'never-answers',
  'reset',
  'refused',
];

function weather(random: Random): Weather {
  const mix: Partial<Record<RequestFaultKind, number>> = {};
  // Each seed meets a few of the faults, each with its own weight: the neighbours of one another.
  for (const kind of faultKinds) if (chance(random, 0.55)) mix[kind] = randomInt(random, 1, 4);
  if (Object.keys(mix).length === 0) mix[pick(random, faultKinds)] = 1;
  const rate = () => pick(random, [0, 0.02, 0.05, 0.1, 0.18]);
  return {
    postFaultRate: { slack: rate(), discord: rate() },
    lookFaultRate: pick(random, [0, 0, 0.05, 0.15]),
    editFaultRate: pick(random, [0, 0.1, 0.3]),
    mix,
  };
}

function storms(random: Random, chans: readonly ChaosChannel[], from: number, to: number): Storm[] {
  return Array.from({ length: randomInt(random, 0, 2) }, () => {
    const channel = pick(random, chans);
    const at = randomInt(random, from, to);
    return {
      platform: channel.platform,
      ...(chance(random, 0.7) ? { channel: channel.id } : {}),
      from: at,
      to: at + randomInt(random, 5_000, 90_000),
      fault: pick(random, faultKinds),
      rate: pick(random, [0.5, 0.8, 1]),
    };
  });
}

function timedFault(
  random: Random,
  at: number,
  replicas: number,
  chans: readonly ChaosChannel[],
  digestAt: number,
): TimedFault {
  const slot = randomInt(random, 0, replicas - 1);
  const kinds = ['kill', 'kill', 'kill', 'pause', 'store-outage', 'access', 'access', 'api', 'api'] as const;
  const kind = pick(random, replicas > 1 ? [...kinds, 'store-pause' as const] : kinds);
  switch (kind) {
    case 'kill': {
      const moment = pick<KillMoment>(random, ['any', 'post', 'post', 'batch', 'look', 'digest', 'commit']);
      return {
        kind,
        at: moment === 'digest' ? digestAt - minute : at,
        slot,
        moment,
        phase: pick(random, ['before', 'after'] as const),
        // A lone process is always restarted (by its supervisor); a replica may stay dead.
        restartAfterMs: replicas === 1 || chance(random, 0.6) ? randomInt(random, 1_000, 15_000) : null,
      };
    }
    case 'pause':
      return { kind, at, slot, forMs: pick(random, [3_000, 20_000, 45_000, 90_000]) };
    case 'store-outage':
    case 'store-pause':
      return { kind, at, forMs: randomInt(random, 2_000, 45_000) };
    case 'access': {
      const channel = pick(random, chans);
      return {
        kind,
        at,
        platform: channel.platform,
        channel: channel.id,
        problem:
          channel.platform === 'discord'
            ? 'missing-permissions'
            : pick(random, ['not_in_channel', 'is_archived'] as const),
        forMs: randomInt(random, 20_000, 5 * minute),
        eventOnReturn: chance(random, 0.7),
      };
    }
    case 'api':
      return {
        kind,
        at,
        fault: pick(random, ['5xx', '5xx', '429', 'slow', 'shift', 'malformed'] as const),
        n: randomInt(random, 1, 6),
      };
  }
}

/**
 * The own-message events' weather: delivered a few hundred ms to a few s after the landing, except in
 * `eventsLost` windows (a process's Socket Mode or gateway connection down, or the platform's events for every
 * process), in which the pipeline must fall back on its looks.
 */
function ownEvents(random: Random, replicas: number, from: number, to: number): OwnEvents {
  const maxDelayMs = pick(random, [800, 2_000, 4_000]);
  const lost = Array.from({ length: pick(random, [0, 0, 1, 1, 2]) }, () => {
    const at = randomInt(random, from, to);
    return {
      platform: pick(random, ['slack', 'discord'] as const),
      ...(chance(random, 0.5) ? { slot: randomInt(random, 0, replicas - 1) } : {}),
      from: at,
      to: at + randomInt(random, 5_000, 3 * minute),
    };
  });
  return { minDelayMs: 200, maxDelayMs, connectMs: randomInt(random, 500, 3_000), lost };
}

/** The schedule a seed means. */
export function scheduleFor(seed: number, options: ScheduleOptions = {}): Schedule {
  const random = seededRandom(seed);
  const maxReplicas = options.maxReplicas ?? 3;
  const replicas = maxReplicas === 1 || chance(random, 0.55) ? 1 : randomInt(random, 2, maxReplicas);
  const chans = channels(random);
  // Supporters arrive after the first reads (the engine's baseline) are well behind.
  const firstArrival = chaosStart + 2 * minute;
  const list = arrivals(random, firstArrival, options);
  const lastArrival = list[list.length - 1]?.at ?? firstArrival;
  const digestAt = chaosStart + randomInt(random, 8, 20) * minute;
  const date = new Date(digestAt);
  const digestTime = `${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  const faults = Array.from({ length: randomInt(random, 1, 7) }, () =>
    timedFault(random, randomInt(random, firstArrival, lastArrival + minute), replicas, chans, digestAt),
  ).sort((a, b) => a.at - b.at);
  const lastFault = Math.max(
    lastArrival,
    ...faults.map(
      (f) => f.at + ('forMs' in f ? f.forMs : 0) + ('restartAfterMs' in f ? (f.restartAfterMs ?? 0) : 0),
    ),
  );
  const storms_ = storms(random, chans, firstArrival, lastArrival);
  const weather_ = weather(random);
  const nonceWindowMs = randomInt(random, 2, 6) * minute;
  // Drawn last: the draws before it (and so every older seed's schedule) stay as they were.
  const events = ownEvents(random, replicas, firstArrival, lastArrival + minute);
  return {
    seed,
    start: chaosStart,
    end: Math.max(lastFault, digestAt) + (options.drainMs ?? 20 * minute),
    replicas,
    channels: chans,
    arrivals: list,
    faults,
    storms: storms_,
    weather: weather_,
    digestTime,
    nonceWindowMs,
    ownEvents: events,
  };
}
