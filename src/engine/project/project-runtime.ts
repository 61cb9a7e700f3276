import type { ApiClient } from '../../api/index.js';
import type { EngineProject, ProjectBase } from '../context/engine-project.js';
import type { LeaseSlice } from '../lease/lease-tenure.js';
import { CredentialGate } from '../schedule/credential-gate.js';
import { newScheduleSlice, type ScheduleSlice } from '../schedule/schedule-slice.js';
import { newStateSlice, type StateSlice } from '../state/state-slice.js';

/**
 * The per-project record (in memory), assembled from the slices the stages own: the schedule's (due times,
 * arrival rates, the key's pause), the lease's (who holds it), the state's (the handle on what is stored), on the
 * base every stage reads (configuration, API, notes). A stage's functions take only the slices they use.
 */
export type ProjectRuntime = ProjectBase & ScheduleSlice & LeaseSlice & StateSlice;

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
  const credential = config.key.fingerprint;
  let gate = input.gates.get(credential);
  if (gate === undefined) {
    gate = new CredentialGate(input.reserveShare);
    input.gates.set(credential, gate);
  }
  runtimes.set(config.linkCaption, {
    config,
    api: input.api.project(config.linkCaption, config.key),
    recentErrors: [],
    ...newScheduleSlice(gate, input.now),
    leaseUntil: 0,
    leaseRetryAt: input.now,
    ...newStateSlice(),
  });
}
