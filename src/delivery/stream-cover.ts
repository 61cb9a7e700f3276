import type { ChannelRef } from '../domain/channels.js';
import type { Doubt } from './doubt.js';
import { type LookView, readAtOf } from './look-view.js';
import type { Witness } from './witness.js';

/**
 * What this process's own event stream (witness.ts) says about a doubt left by a process that died before the
 * stream connected (seed 39's class: two Slack channels of one workspace in doubt, one look a minute, each needing
 * its own look 100 s after its attempt).
 *
 * - **A stream read.** A look that read the channel from the attempt (minus the clock margin) past the stream's
 *   connection time plus the margin, together with the stream from then on, covers every place the post can land:
 *   before the read, the look shows it; after, its event comes to this process. So once the stream is proven
 *   (one of the workspace's events came on the same unbroken connection: `Witness.streamSince`), the doubt is
 *   `watched` as one attempted while the stream ran: a look past where it lands when received decides it, and a
 *   copy landing later is sighted and removed (the pipeline's rule for every watched doubt).
 * - **Not before it.** A look read before the stream connected (plus the margin), or by the dead process, does not
 *   make the doubt watched however live the workspace is now: a copy landing between that read and the stream's
 *   start reaches no one (or only by Slack's retries, a minute later).
 * - **Alone only.** Slack hands each event to one of the app's connections: in a fleet, a copy's event may go to
 *   another replica, which stores the sighting only after a ledger read and a write, and a replica killed after
 *   Bolt acknowledged the event (it does so before the listener runs) loses it for good: Slack does not send it
 *   again. So the stream read is planned only where this process is the fleet (`postingReplicas` 1); there, the
 *   only other connection is the dead process's, and an event it cannot acknowledge Slack hands on at once.
 *
 * Where the connection time is not known (a platform whose adapter does not report it), or in a fleet (while
 * this connection was down, Slack handed the events to the others, which store the sightings of doubts), a live
 * workspace is trusted as before.
 */
export function streamCover(input: {
  readonly witness: Witness;
  readonly channel: ChannelRef;
  readonly marginMs: number;
  /** This process posts alone (the lease balancer's live replicas). */
  readonly alone: boolean;
}) {
  const { witness, channel, marginMs } = input;
  const connectedAt = witness.connectedSince(channel.platform);
  const provenSince = witness.streamSince(channel);
  const live = witness.live(channel);
  /** Whether the view's finished looks read the channel from `from` past `to`. */
  const readOver = (view: LookView, from: number, to: number) => {
    const c = view.continuation ? undefined : view.covered;
    return c !== undefined && c.from <= from && c.to >= to && readAtOf(c) >= to;
  };
  // Only a process alone plans stream reads, and only for doubts all attempted before its stream connected.
  const streamStart = connectedAt ?? Number.NEGATIVE_INFINITY;
  const streamDoubts = (open: readonly Doubt[]) =>
    input.alone &&
    connectedAt !== undefined &&
    open.length > 0 &&
    open.every((d) => d.startedAt < streamStart);
  const allReadPastStream = (open: readonly Doubt[], view: LookView) =>
    open.every((d) => readOver(view, d.startedAt - marginMs, streamStart + marginMs));
  return {
    /** Whether a copy of the doubt's post landing from now on would be sighted (see above). */
    watched(doubt: Doubt, view: LookView): boolean {
      if (!live) return false;
      // In a fleet the other replicas' connections took the events this one missed, and stored the sightings.
      if (connectedAt === undefined || !input.alone) return true;
      if (provenSince === undefined) return false;
      return (
        doubt.startedAt >= provenSince || readOver(view, doubt.startedAt - marginMs, provenSince + marginMs)
      );
    },

    /**
     * Where a stream read must reach (the connection time plus the margin), while one is still wanted for these
     * doubts: all attempted before the stream connected, this process alone, none read past it yet.
     */
    readFrom(open: readonly Doubt[], view: LookView): number | undefined {
      return streamDoubts(open) && !allReadPastStream(open, view) ? streamStart + marginMs : undefined;
    },

    /** Whether the view holds a stream read for every one of these doubts (their proof may decide them). */
    read(open: readonly Doubt[], view: LookView): boolean {
      return streamDoubts(open) && allReadPastStream(open, view);
    },
  };
}
