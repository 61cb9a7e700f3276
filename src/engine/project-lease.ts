import type { EngineContext } from './engine-context.js';
import type { ProjectRuntime } from './project-runtime.js';
import { loadState } from './project-state-store.js';

const resourceOf = (rt: ProjectRuntime) => `fundbot:project:${rt.config.linkCaption}`;

/**
 * Holds (or acquires) the project's lease; reloads state after the lease was lost
 * or never held. Renews when a third of the TTL is left (one lease call per ~40 s).
 */
export async function ensureLease(ctx: EngineContext, rt: ProjectRuntime): Promise<boolean> {
  const { leaseTtlMs } = ctx.settings;
  const now = ctx.clock.now();
  if (now < rt.leaseUntil - leaseTtlMs / 3) return true;
  if (now < rt.leaseRetryAt && rt.leaseUntil <= now) return false;
  const wasHeld = now < rt.leaseUntil;
  const ok = await ctx.lease.acquire(resourceOf(rt), ctx.replicaId, leaseTtlMs);
  if (!ok) {
    rt.leaseUntil = 0;
    rt.leaseRetryAt = now + leaseTtlMs / 2;
    rt.state = null; // another replica writes it now: reload when the lease comes back
    return false;
  }
  if (!wasHeld) await rt.mutex.run(() => loadState(ctx, rt));
  rt.leaseUntil = now + leaseTtlMs;
  return true;
}

/** Gives up every lease this replica holds (on stop), so another replica can take over at once. */
export async function releaseLeases(ctx: EngineContext): Promise<void> {
  for (const rt of ctx.runtimes.values()) {
    if (ctx.clock.now() < rt.leaseUntil) await ctx.lease.release(resourceOf(rt), ctx.replicaId);
    rt.leaseUntil = 0;
    rt.leaseRetryAt = ctx.clock.now();
  }
}
