import type { EngineContext } from './engine-context.js';
import type { ProjectRuntime } from './project-runtime.js';

/** The lease resource of a project: its link caption (what `/healthz` and the balancer name). */
export const leaseResourceOf = (rt: ProjectRuntime): string => rt.config.linkCaption;

/** The fencing token of each project's current tenure on this replica; the state write carries it. */
export const leaseTokens = new WeakMap<ProjectRuntime, number>();

/** The token the project's commit must carry, or undefined while this replica does not hold it. */
export function leaseTokenOf(ctx: EngineContext, rt: ProjectRuntime): number | undefined {
  return ctx.clock.now() < rt.leaseUntil ? leaseTokens.get(rt) : undefined;
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
