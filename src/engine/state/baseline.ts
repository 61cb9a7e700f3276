import type { EngineServices } from '../context/engine-services.js';
import { baselineStored } from './project-state-keys-store.js';
import { inCycle } from './project-state-store.js';
import type { StateProject } from './state-slice.js';

/**
 * "Watching from now on" (issue 30): a supporter is announced when the fundings list has a stored baseline
 * from before they funded, since the first read of a list only stores what it finds. These are the two ways
 * to know the baseline is there: in memory on the replica that polls the project, in the store on any other.
 */

/** The project's fundings baseline is read and committed (not merely in memory inside a cycle). */
export function hasBaseline(rt: StateProject): boolean {
  return rt.state !== null && rt.state.lists.fundings !== undefined && !inCycle(rt);
}

/** How often a replica that does not poll the project looks at the stored head while it waits. */
const lookEveryMs = 250;

/**
 * Waits until the store holds the project's fundings baseline, written by the replica that polls it, or until
 * `deadline`. Cost: one read of the head every 250 ms while waiting; none once it is there.
 */
export async function awaitStoredBaseline(
  ctx: EngineServices,
  linkCaption: string,
  deadline: number,
): Promise<boolean> {
  for (;;) {
    if (await baselineStored(ctx.store, linkCaption)) return true;
    const left = deadline - ctx.clock.now();
    if (left <= 0) return false;
    await ctx.clock.sleep(Math.min(lookEveryMs, left));
  }
}
