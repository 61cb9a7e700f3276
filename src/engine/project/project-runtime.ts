import type { ApiClient, Incentive, IncentiveDetail, Project, ProjectApi } from '../../api/index.js';
import type { EngineNote } from '../../domain/engine-notes.js';
import { type FeedName, feedNames, feedTable } from '../../domain/feeds.js';
import type { Cached, HistoryPoint } from '../../domain/read-model.js';
import { Mutex } from '../context/single-flight.js';
import type { EngineProject } from '../engine-options.js';
import { ArrivalRhythm } from '../schedule/arrival-rhythm.js';
import { CredentialGate } from '../schedule/credential-gate.js';
import { DecayingRate } from '../schedule/decaying-rate.js';
import { SignalPolls, type SignalWindow } from '../schedule/signal-interleave.js';
import type { ProjectState } from '../state/project-state.js';

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

/** Per-project runtime: in-memory copy of the stored state (authoritative while holding the lease). */
export interface ProjectRuntime {
  readonly config: EngineProject;
  readonly api: ProjectApi;
  readonly gate: CredentialGate;
  readonly mutex: Mutex;
  readonly feeds: Map<FeedName, FeedRuntime>;
  /**
   * The project's supporter arrival rhythm: where the planner spends (arrival-rhythm.ts,
   * fundings-pace.ts). Kept in the fundings list's state, so a restart or another replica goes on from it.
   */
  readonly arrivals: ArrivalRhythm;
  state: ProjectState | null;
  history: HistoryPoint[] | null;
  projectCache: Cached<Project> | null;
  rewardsCache: Cached<readonly Incentive[]> | null;
  readonly rewardDetails: Map<number, Cached<IncentiveDetail>>;
  readonly recentErrors: { at: number; note: EngineNote }[];
  leaseUntil: number;
  leaseRetryAt: number;
  /** Set while the platform rejects the key: no feed is polled but the probe at `retryAt`. */
  paused: ProjectPause | null;
  /**
   * Whether the sink was offered the project since its state was (re)loaded here (a start, a lease taken
   * over): the first offer hands it over even with an empty outbox, so the sink takes up what it keeps for
   * the project (a held batch due meanwhile) without waiting for the project's next event.
   */
  sinkAdopted: boolean;
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

/**
 * One runtime per configured project, every feed due at `now`. Projects sharing
 * a key (same fingerprint) share one {@link CredentialGate}: they share its budget.
 */
export function createProjectRuntimes(input: {
  readonly api: ApiClient;
  readonly projects: readonly EngineProject[];
  readonly reserveShare: number;
  readonly now: number;
  /** Shared with {@link addProjectRuntime}: a project added later with a known key shares its gate. */
  readonly gates?: Map<string, CredentialGate>;
}): Map<string, ProjectRuntime> {
  const runtimes = new Map<string, ProjectRuntime>();
  for (const config of input.projects) {
    if (runtimes.has(config.linkCaption))
      throw new Error(`project "${config.linkCaption}" is configured twice`);
    addProjectRuntime(runtimes, { ...input, gates: input.gates ?? new Map() }, config);
  }
  return runtimes;
}

/** Adds one project's runtime, every feed due at `now` (a project connected while running, or at start). */
export function addProjectRuntime(
  runtimes: Map<string, ProjectRuntime>,
  input: {
    readonly api: ApiClient;
    readonly reserveShare: number;
    readonly now: number;
    readonly gates: Map<string, CredentialGate>;
  },
  config: EngineProject,
): void {
  const gates = input.gates;
  {
    const credential = config.key.fingerprint;
    let gate = gates.get(credential);
    if (gate === undefined) {
      gate = new CredentialGate(input.reserveShare);
      gates.set(credential, gate);
    }
    const feeds = new Map<FeedName, FeedRuntime>();
    for (const feed of feedNames) {
      feeds.set(feed, {
        dueAt: input.now,
        // Until the first plan (after the first poll): the feed table's documented interval.
        intervalMs: feedTable[feed].defaultIntervalMs,
        lastSuccessAt: null,
        failures: 0,
        requestsPerPoll: 1,
        oneOffs: new DecayingRate(ONE_OFF_TAU_MS, input.now),
        ...(feed === 'fundings' ? { signalPolls: new SignalPolls() } : {}),
      });
    }
    runtimes.set(config.linkCaption, {
      config,
      api: input.api.project(config.linkCaption, config.key),
      gate,
      mutex: new Mutex(),
      feeds,
      arrivals: new ArrivalRhythm(input.now),
      state: null,
      history: null,
      projectCache: null,
      rewardsCache: null,
      rewardDetails: new Map(),
      recentErrors: [],
      leaseUntil: 0,
      leaseRetryAt: input.now,
      paused: null,
      sinkAdopted: false,
    });
  }
}

/** Keeps the last 20 notes for `/status` (codes: each channel reads them in its language). */
export function noteError(rt: ProjectRuntime, at: number, n: EngineNote): void {
  rt.recentErrors.push({ at, note: n });
  if (rt.recentErrors.length > 20) rt.recentErrors.splice(0, rt.recentErrors.length - 20);
}

export function feedOf(rt: ProjectRuntime, feed: FeedName): FeedRuntime {
  const f = rt.feeds.get(feed);
  if (f === undefined) throw new Error(`unknown feed ${feed}`);
  return f;
}
