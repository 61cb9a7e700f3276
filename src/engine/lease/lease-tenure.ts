import type { ProjectBase } from '../context/engine-project.js';
import type { EngineServices } from '../context/engine-services.js';

/** The lease's slice of the per-project record: until when this replica holds the project, when to ask again. */
export interface LeaseSlice {
  /** Epoch ms this replica's tenure lasts (0: not held). */
  leaseUntil: number;
  /** Epoch ms before which a lost lease is not asked for again. */
  leaseRetryAt: number;
}

/** A project as the lease sees it. */
export type LeasedProject = ProjectBase & LeaseSlice;

/** The lease resource of a project: its link caption (what `/healthz` and the balancer name). */
export const leaseResourceOf = (rt: LeasedProject): string => rt.config.linkCaption;

/** The fencing token of each project's current tenure on this replica; the state write carries it. */
export const leaseTokens = new WeakMap<LeasedProject, number>();

/** The token the project's commit must carry, or undefined while this replica does not hold it. */
export function leaseTokenOf(ctx: EngineServices, rt: LeasedProject): number | undefined {
  return ctx.clock.now() < rt.leaseUntil ? leaseTokens.get(rt) : undefined;
}

/**
 * The token for a state write. When this replica's own note of the lease ran out during the poll (a poll
 * slower than 2/3 of the TTL: a slow API, a loaded host), the lease is asked again instead of the project being
 * given up: the same token back means the same tenure (the balancer, or this engine, renewed it meanwhile), so
 * the state in memory is still the truth. Undefined when the tenure ended; Redis still compares the token.
 * Cost: nothing on the common path; one `acquire` (no request with the balancer) after a slow poll.
 */
export async function commitTokenOf(ctx: EngineServices, rt: LeasedProject): Promise<number | undefined> {
  const current = leaseTokenOf(ctx, rt);
  const tenure = leaseTokens.get(rt);
  if (current !== undefined || tenure === undefined) return current;
  const askedAt = ctx.clock.now();
  const grant = await ctx.lease.acquire(leaseResourceOf(rt), ctx.replicaId, ctx.settings.leaseTtlMs);
  if (grant?.token !== tenure) return undefined;
  rt.leaseUntil = askedAt + ctx.settings.leaseTtlMs;
  return tenure;
}

/**
 * Ends this replica's tenure of a project whose lease went to another replica: the lease is asked again after a
 * third of the TTL. (What the state does about it: state/project-lease.ts, `tenureEnded`.)
 */
export function leaseLost(ctx: EngineServices, rt: LeasedProject): void {
  leaseTokens.delete(rt);
  rt.leaseUntil = 0;
  rt.leaseRetryAt = ctx.clock.now() + ctx.settings.leaseTtlMs / 3;
}
