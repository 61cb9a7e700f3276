/**
 * A seed's schedule for the running bot on the real clock: the same generator (schedule.ts) draws it, narrowed to
 * what one fundbot process on a SQLite file can meet, then pressed into about a minute. One replica (a fleet
 * needs Redis and its own harness); no digest (its minute-of-the-day schedule cannot be pressed); `auto` pacing
 * batched every minute (its 10-minute batches cannot be pressed); store outages and pauses left out (the store
 * is a file inside the process). Everything else keeps its kind and order: the
 * arrivals and timed faults run `timeScale` times faster, their lengths shorter within caps, and the platforms'
 * per-request weather is the seed's own (platform-faults.ts), with late answers and Retry-After shortened by
 * {@link pressFault}.
 */
import { scheduleFor } from '../schedule.js';
import type { RequestFault, Schedule, TimedFault } from '../vocabulary.js';

/** How much faster than the virtual-clock seed the arrivals and timed faults come. */
export const timeScale = 6;
const minute = 60_000;
/** The virtual schedule's first arrival comes two minutes in (schedule.ts). */
const virtualLead = 2 * minute;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.round(value)));

export interface RealSchedule {
  /** The seed's schedule on the real clock (epoch ms from `start`), as the judge reads it. */
  readonly schedule: Schedule;
  /** What the narrowing left out, for the seed's notes. */
  readonly leftOut: readonly string[];
}

/** Press one timed fault: its moment scaled, its length shortened. Undefined: left out on the running bot. */
function pressTimed(fault: TimedFault, at: number): TimedFault | undefined {
  switch (fault.kind) {
    case 'kill':
      return {
        ...fault,
        at,
        slot: 0,
        // No digest on the running bot: a kill "mid-digest" lands at its time instead.
        moment: fault.moment === 'digest' ? 'any' : fault.moment,
        restartAfterMs: clamp((fault.restartAfterMs ?? 15_000) / 3, 1_000, 5_000),
      };
    case 'pause':
      return { ...fault, at, slot: 0, forMs: clamp(fault.forMs / 3, 1_000, 15_000) };
    case 'access':
      return { ...fault, at, forMs: clamp(fault.forMs / timeScale, 3_000, 30_000) };
    case 'api':
      return { ...fault, at };
    case 'store-outage':
    case 'store-pause':
      return undefined;
  }
}

/** The real-clock schedule of `seed`, starting at `start` (epoch ms). */
export function realBotSchedule(seed: number, start: number): RealSchedule {
  const virtual = scheduleFor(seed, {
    maxReplicas: 1,
    maxSupporters: 16,
    maxArrivalMs: 3 * minute,
    drainMs: 0,
  });
  const firstArrival = virtual.start + virtualLead;
  // A few seconds for the bot's first reads after the clock starts, then the seed's minutes pressed.
  const real = (t: number) => start + 3_000 + Math.max(0, t - firstArrival) / timeScale;
  const leftOut: string[] = [];
  const faults: TimedFault[] = [];
  const lastArrival = virtual.arrivals.at(-1)?.at ?? firstArrival;
  for (const fault of virtual.faults) {
    // A kill "mid-digest" is drawn a minute before the digest's time, later than the other faults: on the
    // running bot it lands where they do, within a minute of the last arrival.
    const pressed = pressTimed(fault, real(Math.min(fault.at, lastArrival + minute)));
    if (pressed) faults.push(pressed);
    else
      leftOut.push(
        `${fault.kind} at +${((real(fault.at) - start) / 1000).toFixed(1)}s (the store is a file)`,
      );
  }
  const channels = virtual.channels.map((c) => {
    if (c.digest) leftOut.push(`digest of ${c.platform}:${c.id} (the digest's time of day is not pressed)`);
    // `auto` batches every 10 minutes once a channel had its live share, and nothing presses that: such a
    // channel is paced `batched` (one minute, the shortest) instead.
    if (c.pacing === 'auto')
      leftOut.push(
        `auto pacing of ${c.platform}:${c.id}, batched every minute instead (auto batches every 10)`,
      );
    return { ...c, digest: false, pacing: c.pacing === 'auto' ? ('batched' as const) : c.pacing };
  });
  const arrivals = virtual.arrivals.map((a) => ({ ...a, at: Math.round(real(a.at)) }));
  const storms = virtual.storms.map((s) => ({
    ...s,
    from: Math.round(real(s.from)),
    to: Math.round(real(s.from) + clamp((s.to - s.from) / timeScale, 2_000, 20_000)),
  }));
  const lastMoment = Math.max(
    arrivals.at(-1)?.at ?? start,
    ...faults.map(
      (f) => f.at + ('forMs' in f ? f.forMs : 0) + ('restartAfterMs' in f ? (f.restartAfterMs ?? 0) : 0),
    ),
    ...storms.map((s) => s.to),
  );
  return {
    schedule: { ...virtual, start, end: lastMoment, channels, arrivals, faults, storms },
    leftOut,
  };
}

/**
 * A per-request fault as the running bot meets it: a late answer or landing at most 30 s late (a third of the
 * virtual seed's 0-90 s, so 25-30 s late answers, past the poster's 10 s timeout, stay in), a Slack Retry-After at
 * most 10 s.
 */
export function pressFault(fault: RequestFault): RequestFault {
  switch (fault.kind) {
    case 'late-answer':
    case 'late-landing':
      return { ...fault, delayMs: Math.round(fault.delayMs / 3) };
    case 'rate-limited':
      return { ...fault, retryAfterMs: Math.min(fault.retryAfterMs, 10_000) };
    default:
      return fault;
  }
}
