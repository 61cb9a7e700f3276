import type { EngineServices } from '../context/engine-services.js';
import { keyPacePerMs } from './budget-plan.js';
import { assumedBudget, type CredentialGate } from './credential-gate.js';
import { ceilingBinds, type ProcessCeiling, sizedCeilingPerSecond } from './process-ceiling.js';
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
  /** The process-wide ceiling for this count (process-ceiling.ts), shared among the keys by replan. */
  readonly ceiling: ProcessCeiling;
}

/** A census with the runtimes it counted (to tell whether its sharing lists still stand). */
interface Census extends RuntimeCensus {
  readonly members: ReadonlySet<PlannedProject>;
}

const censuses = new WeakMap<PlannedProjects['runtimes'], Census>();

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

/** The ceiling as the latest census counted it (counted now if none is younger than a second). */
export function processCeilingOf(ctx: EngineServices & PlannedProjects): ProcessCeiling {
  const now = ctx.clock.now();
  const known = censuses.get(ctx.runtimes);
  if (
    known !== undefined &&
    now >= known.at &&
    now - known.at < CENSUS_MS &&
    known.size === ctx.runtimes.size
  )
    return known.ceiling;
  const census = count(ctx, now);
  censuses.set(ctx.runtimes, census);
  return census.ceiling;
}

function count(ctx: EngineServices & PlannedProjects, now: number): Census {
  const previous = censuses.get(ctx.runtimes);
  // Who shares a key changes only when projects are added or removed: the lists of the last count stand while
  // the same runtimes are there (as many, each of them among the last count's). Building them afresh every
  // second was most of a count (3,000 runtimes: about 4 of its 5 ms, more before the code is optimised).
  let same = previous !== undefined && previous.size === ctx.runtimes.size;
  const polledHere = new Map<CredentialGate, number>();
  let polledHereTotal = 0;
  for (const r of ctx.runtimes.values()) {
    if (same && previous?.members.has(r) !== true) same = false;
    if (now < r.leaseUntil && r.paused === null) {
      polledHereTotal += 1;
      polledHere.set(r.gate, (polledHere.get(r.gate) ?? 0) + 1);
    }
  }
  const { sharing, members } = same && previous !== undefined ? previous : sharingOf(ctx.runtimes);
  return {
    at: now,
    size: ctx.runtimes.size,
    sharing,
    members,
    polledHere,
    polledHereTotal,
    ceiling: ceilingFor(ctx, now, sharing, polledHere),
  };
}

/** The runtimes of each credential, in the order they were added. */
function sharingOf(runtimes: PlannedProjects['runtimes']): Pick<Census, 'sharing' | 'members'> {
  const sharing = new Map<CredentialGate, PlannedProject[]>();
  for (const r of runtimes.values()) {
    const list = sharing.get(r.gate);
    if (list === undefined) sharing.set(r.gate, [r]);
    else list.push(r);
  }
  return { sharing, members: new Set(runtimes.values()) };
}

/** The keys polled here: their day limits size the ceiling, their pace tells whether it binds. */
function ceilingFor(
  ctx: EngineServices,
  now: number,
  sharing: ReadonlyMap<CredentialGate, readonly PlannedProject[]>,
  polledHere: ReadonlyMap<CredentialGate, number>,
): ProcessCeiling {
  const dayLimits: number[] = [];
  let keysPerMs = 0;
  for (const gate of polledHere.keys()) {
    const key = sharing.get(gate)?.[0]?.config.key;
    if (key === undefined) continue;
    const budget = ctx.api.budget(key) ?? assumedBudget(now);
    dayLimits.push(budget.dayLimit);
    keysPerMs += keyPacePerMs(budget, now, ctx.settings.reserveShare);
  }
  const configured = ctx.settings.ceilingConfigured;
  const perSecond = configured ? ctx.settings.maxRequestsPerSecond : sizedCeilingPerSecond(dayLimits);
  const keysPerSecond = Math.round(keysPerMs * 10_000) / 10;
  return {
    perSecond,
    source: configured ? 'configured' : 'sized',
    keysPerSecond,
    keys: dayLimits.length,
    binds: ceilingBinds(perSecond, keysPerSecond),
  };
}
