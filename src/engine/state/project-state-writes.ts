import { LeaseLostError } from '../../domain/errors.js';
import type { EngineServices } from '../context/engine-services.js';
import type { PlannedWrite } from '../lease/lease.js';
import { commitTokenOf, leaseLost, leaseResourceOf } from '../lease/lease-tenure.js';
import { stateKeys } from './project-state.js';
import { type ChunkRef, digestOf, encodeRefs, planChunks, type StoredChunk } from './project-state-chunks.js';
import type { StateProject } from './state-slice.js';

/** What the store holds of a chunked value, as its stored pointer (head or index) references it. */
export interface ChunkedLayout {
  /** Collection -> its stored chunks, in order. */
  readonly collections: Map<string, StoredChunk[]>;
  /**
   * Set when a write failed: the stored pointer may or may not be the one last written,
   * so it is read again before the next commit (and every chunk is written afresh).
   */
  stale: boolean;
}

export const emptyLayout = (): ChunkedLayout => ({ collections: new Map(), stale: false });

export type { PlannedWrite } from '../lease/lease.js';

/**
 * Plans one collection: its chunk values against the stored chunks. Returns the writes
 * (only chunks whose content is new, each into a slot the stored pointer does not
 * reference), the refs text for the pointer and the collection's layout after the commit.
 */
export function planCollection(
  linkCaption: string,
  layout: ChunkedLayout,
  collection: string,
  values: readonly unknown[],
): { writes: PlannedWrite[]; refs: string; stored: StoredChunk[] } {
  const digests = values.map((v) => digestOf(v));
  const plan = planChunks(layout.collections.get(collection) ?? [], digests);
  const writes = plan.writes.map((w) => ({
    key: stateKeys.chunk(linkCaption, collection, w),
    value: values[w.index],
  }));
  const stored = plan.refs.map((r: ChunkRef, i) => ({ ...r, digest: digests[i] }));
  return { writes, refs: encodeRefs(plan.refs), stored };
}

/**
 * Writes a commit: every chunk, then the pointer (the head or the history index), which is the
 * commit point, fenced by the project's lease token (Lease.fencedCommit: on Redis one script, so
 * the chunks and the pointer land together). A crash or failure before the pointer landed leaves
 * the stored pointer on the previous commit's chunks, untouched: the stored state is exactly the
 * previous commit's. A refused write means another replica holds the project:
 * {@link LeaseLostError}. Any other failure marks the layout stale and is thrown.
 */
export async function writeCommit(
  ctx: EngineServices,
  rt: StateProject,
  layout: ChunkedLayout,
  chunks: readonly PlannedWrite[],
  pointer: PlannedWrite,
): Promise<void> {
  const project = rt.config.linkCaption;
  // Asks the lease again when its local expiry passed: a renewed tenure keeps the same token.
  const token = await commitTokenOf(ctx, rt);
  const lost = (): never => {
    leaseLost(ctx, rt);
    rt.state = null; // the successor writes the stored state; reloaded when the lease comes back
    ctx.logger.warn({ project }, 'lease lost before the state write: another replica polls this project now');
    throw new LeaseLostError(project);
  };
  if (token === undefined) return lost();
  let written: boolean;
  try {
    written = await ctx.lease.fencedCommit(leaseResourceOf(rt), token, { chunks, pointer }, ctx.store);
  } catch (error) {
    layout.stale = true;
    throw error;
  }
  if (!written) return lost();
}
