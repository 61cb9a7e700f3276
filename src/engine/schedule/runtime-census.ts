import type { EngineServices } from '../context/engine-services.js';
import type { CredentialGate } from './credential-gate.js';
import type { PlannedProject, PlannedProjects } from './schedule-slice.js';

/** How long a count stands: the process ceiling's share moves with leases, which change over seconds. */
const CENSUS_MS = 1_000;

/** Who shares each credential, and how many projects this process polls (leased here, not paused). */
export interface RuntimeCensus {
  readonly at: number;
  readonly size: number;
  readonly sharing: ReadonlyMap<CredentialGate, readonly PlannedProject[]>;
  readonly polledHere: ReadonlyMap<CredentialGate, number>;
  readonly polledHereTotal: number;
}

const censuses = new WeakMap<PlannedProjects['runtimes'], RuntimeCensus>();

/**
 * The census `replan` divides the budgets by, counted at most once a second and again when the set
 * of projects changed. Re-plans run after every poll: counting every runtime each time was 13% of a
 * replica's CPU at its first polls (3,000 runtimes, bench scaleRedis). A lease or pause that changed
 * within the second moves the process ceiling's share at the next count; a credential's sharing list
 * is always current for the project asking (a project added since is counted again at once).
 */
export function censusOf(ctx: EngineServices & PlannedProjects, rt: PlannedProject): RuntimeCensus {
  const now = ctx.clock.now();
  const known = censuses.get(ctx.runtimes);
  if (
    known !== undefined &&
    now >= known.at &&
    now - known.at < CENSUS_MS &&
    known.size === ctx.runtimes.size &&
    known.sharing.get(rt.gate)?.includes(rt) === true
  ) {
    return known;
  }
  const census = count(ctx, now);
  censuses.set(ctx.runtimes, census);
  return census;
}

function count(ctx: EngineServices & PlannedProjects, now: number): RuntimeCensus {
  const sharing = new Map<CredentialGate, PlannedProject[]>();
  const polledHere = new Map<CredentialGate, number>();
  let polledHereTotal = 0;
  for (const r of ctx.runtimes.values()) {
    const list = sharing.get(r.gate);
    if (list === undefined) sharing.set(r.gate, [r]);
    else list.push(r);
    if (now < r.leaseUntil && r.paused === null) {
      polledHereTotal += 1;
      polledHere.set(r.gate, (polledHere.get(r.gate) ?? 0) + 1);
    }
  }
  return { at: now, size: ctx.runtimes.size, sharing, polledHere, polledHereTotal };
}
