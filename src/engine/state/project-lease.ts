import type { EngineServices } from '../context/engine-services.js';
import { leaseLost, leaseResourceOf, leaseTokens as tokens } from '../lease/lease-tenure.js';
import { loadState } from './project-state-store.js';
import type { StateProject } from './state-slice.js';

/**
 * Holds (or acquires) the project's lease; reloads state after the lease was lost
 * or never held. Renews when a third of the TTL is left (one lease call per TTL/3).
 */
export async function ensureLease(ctx: EngineServices, rt: StateProject): Promise<boolean> {
  const { leaseTtlMs } = ctx.settings;
  const now = ctx.clock.now();
  if (now < rt.leaseUntil - leaseTtlMs / 3 && stillHolds(ctx, rt)) return true;
  if (now < rt.leaseRetryAt && rt.leaseUntil <= now) return false;
  const wasHeld = now < rt.leaseUntil;
  const grant = await ctx.lease.acquire(leaseResourceOf(rt), ctx.replicaId, leaseTtlMs);
  if (grant === null) {
    leaseLost(ctx, rt); // another replica writes it now: reload when the lease comes back
    rt.state = null;
    return false;
  }
  // A new token means another tenure began in between (ours lapsed): what is in memory may be stale.
  const sameTenure = wasHeld && tokens.get(rt) === grant.token;
  if (!sameTenure) await rt.mutex.run(() => loadState(ctx, rt));
  tokens.set(rt, grant.token);
  rt.leaseUntil = now + leaseTtlMs;
  return true;
}

/** The lease's own word on the current tenure, when it has one (see Lease.holds). */
function stillHolds(ctx: EngineServices, rt: StateProject): boolean {
  const token = tokens.get(rt);
  return token === undefined || ctx.lease.holds?.(leaseResourceOf(rt), token) !== false;
}

/** Gives up every lease this replica holds (on stop), so another replica can take over at once. */
export async function releaseLeases(
  ctx: EngineServices & { readonly runtimes: ReadonlyMap<string, StateProject> },
): Promise<void> {
  for (const rt of ctx.runtimes.values()) {
    if (ctx.clock.now() < rt.leaseUntil) await ctx.lease.release(leaseResourceOf(rt), ctx.replicaId);
    tokens.delete(rt);
    rt.leaseUntil = 0;
    rt.leaseRetryAt = ctx.clock.now();
  }
}
