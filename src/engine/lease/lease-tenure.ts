import type { EngineContext } from '../project/engine-context.js';
import type { ProjectRuntime } from '../project/project-runtime.js';

/** The lease resource of a project: its link caption (what `/healthz` and the balancer name). */
export const leaseResourceOf = (rt: ProjectRuntime): string => rt.config.linkCaption;

/** The fencing token of each project's current tenure on this replica; the state write carries it. */
export const leaseTokens = new WeakMap<ProjectRuntime, number>();

/** The token the project's commit must carry, or undefined while this replica does not hold it. */
export function leaseTokenOf(ctx: EngineContext, rt: ProjectRuntime): number | undefined {
  return ctx.clock.now() < rt.leaseUntil ? leaseTokens.get(rt) : undefined;
}

/**
 * The token for a state write. When this replica's own note of the lease ran out during the poll (a poll
 * slower than 2/3 of the TTL: a slow API, a loaded host), the lease is asked again instead of the project being
 * given up: the same token back means the same tenure (the balancer, or this engine, renewed it meanwhile), so
 * the state in memory is still the truth. Undefined when the tenure ended; Redis still compares the token.
 * Cost: nothing on the common path; one `acquire` (no request with the balancer) after a slow poll.
 */
export async function commitTokenOf(ctx: EngineContext, rt: ProjectRuntime): Promise<number | undefined> {
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
 * Forgets a project whose fenced write was refused: another replica holds it now. Its in-memory state goes
 * (the successor writes the stored one) and the lease is asked again after a third of the TTL.
 */
export function leaseLost(ctx: EngineContext, rt: ProjectRuntime): void {
  leaseTokens.delete(rt);
  rt.leaseUntil = 0;
  rt.leaseRetryAt = ctx.clock.now() + ctx.settings.leaseTtlMs / 3;
  rt.state = null;
}
