import type { Incentive, IncentiveDetail, Project } from '../../api/index.js';
import type { Cached, HistoryPoint } from '../../domain/read-model.js';
import type { ProjectBase } from '../context/engine-project.js';
import { Mutex } from '../context/single-flight.js';
import type { LeaseSlice } from '../lease/lease-tenure.js';
import type { ProjectState } from './project-state.js';

/**
 * The state's slice of the per-project record: the handle on what is stored (in memory, authoritative while this
 * replica holds the lease), the lock every change of it takes, and what was read with it.
 */
export interface StateSlice {
  /** Held by every change of the state (a poll's commit, a command's read, a reload after the lease). */
  readonly mutex: Mutex;
  state: ProjectState | null;
  history: HistoryPoint[] | null;
  projectCache: Cached<Project> | null;
  rewardsCache: Cached<readonly Incentive[]> | null;
  readonly rewardDetails: Map<number, Cached<IncentiveDetail>>;
  /**
   * Whether the sink was offered the project since its state was (re)loaded here (a start, a lease taken
   * over): the first offer hands it over even with an empty outbox, so the sink takes up what it keeps for
   * the project (a held batch due meanwhile) without waiting for the project's next event.
   */
  sinkAdopted: boolean;
}

/** A project's state before its first load: nothing read yet. */
export function newStateSlice(): StateSlice {
  return {
    mutex: new Mutex(),
    state: null,
    history: null,
    projectCache: null,
    rewardsCache: null,
    rewardDetails: new Map(),
    sinkAdopted: false,
  };
}

/** A project as the state sees it: its base, the state, and the lease its writes are fenced by. */
export type StateProject = ProjectBase & LeaseSlice & StateSlice;
