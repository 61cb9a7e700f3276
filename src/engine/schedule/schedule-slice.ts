import type { EngineNote } from '../../domain/engine-notes.js';
import { type FeedName, feedNames, feedTable } from '../../domain/feeds.js';
import type { ProjectBase } from '../context/engine-project.js';
import type { LeaseSlice } from '../lease/lease-tenure.js';
import type { StateSlice } from '../state/state-slice.js';
import { ArrivalRhythm } from './arrival-rhythm.js';
import type { CredentialGate } from './credential-gate.js';
import { DecayingRate } from './decaying-rate.js';
import { SignalPolls, type SignalWindow } from './signal-interleave.js';

/** The one-off requests' rate forgets with this time constant: a daily sweep is paid over hours. */
export const ONE_OFF_TAU_MS = 3 * 60 * 60_000;

/** The scheduler's view of one feed of one project (in memory only). */
export interface FeedRuntime {
  dueAt: number;
  intervalMs: number;
  lastSuccessAt: number | null;
  failures: number;
  /** Set while the feed is off because the key lacks its scope (a `scope-missing` note). */
  disabledReason?: EngineNote;
  /** Re-checks of a switched-off feed that found the scope still missing: how far the next one backs off. */
  scopeRechecks?: number;
  /** Moving average of a poll's regular requests (the pages at the new end). */
  requestsPerPoll: number;
  /**
   * The one-off requests (sweeps below the window, fills, late searches) as a rate over hours:
   * the plan takes them off the capacity it spreads (replan.ts), so a steady sweep is fully counted
   * and one deep search is paid for over the next hours instead of stalling this feed's next polls.
   */
  readonly oneOffs: DecayingRate;
  /** Fundings only: the polls the change signal asked for outside the plan (signal-interleave.ts). */
  readonly signalPolls?: SignalPolls;
  /** Fundings only: the User key's change signal's last read of the project and the key polls it leaves room for. */
  signalWindow?: SignalWindow;
}

/** Why and since when a project's polling is paused (its key was rejected). */
export interface ProjectPause {
  /** `key-rejected` or `key-wrong-project`. */
  readonly reason: EngineNote;
  /** Epoch ms of the first rejection. */
  readonly since: number;
  /** Probes refused so far (1 after the first rejection): how far the next one backs off. */
  probes: number;
  /** Epoch ms of the next probe. */
  retryAt: number;
}

/** The schedule's slice of the per-project record: when each feed is due, what it may spend, the key's pause. */
export interface ScheduleSlice {
  /** The project's credential budget, shared by the projects with the same key. */
  readonly gate: CredentialGate;
  readonly feeds: Map<FeedName, FeedRuntime>;
  /**
   * The project's supporter arrival rhythm: where the planner spends (arrival-rhythm.ts,
   * fundings-pace.ts). Kept in the fundings list's state, so a restart or another replica goes on from it.
   */
  readonly arrivals: ArrivalRhythm;
  /** Set while the platform rejects the key: no feed is polled but the probe at `retryAt`. */
  paused: ProjectPause | null;
}

/** A new project's schedule: every feed due at `now`, at the feed table's interval until the first plan. */
export function newScheduleSlice(gate: CredentialGate, now: number): ScheduleSlice {
  const feeds = new Map<FeedName, FeedRuntime>();
  for (const feed of feedNames) {
    feeds.set(feed, {
      dueAt: now,
      // Until the first plan (after the first poll): the feed table's documented interval.
      intervalMs: feedTable[feed].defaultIntervalMs,
      lastSuccessAt: null,
      failures: 0,
      requestsPerPoll: 1,
      oneOffs: new DecayingRate(ONE_OFF_TAU_MS, now),
      ...(feed === 'fundings' ? { signalPolls: new SignalPolls() } : {}),
    });
  }
  return { gate, feeds, arrivals: new ArrivalRhythm(now), paused: null };
}

export function feedOf(rt: ScheduleSlice, feed: FeedName): FeedRuntime {
  const f = rt.feeds.get(feed);
  if (f === undefined) throw new Error(`unknown feed ${feed}`);
  return f;
}

/** A project as the schedule sees it. */
export type ScheduledProject = ProjectBase & ScheduleSlice;

/** A project as the planner sees it: its schedule, whether it is polled here (lease), what its lists saw (state). */
export type PlannedProject = ScheduledProject & LeaseSlice & Pick<StateSlice, 'state'>;

/** The projects the planner counts (runtime-census.ts), as the assembled engine holds them. */
export interface PlannedProjects {
  readonly runtimes: ReadonlyMap<string, PlannedProject>;
}
