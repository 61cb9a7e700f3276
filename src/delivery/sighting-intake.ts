import { type ChannelRef, channelKey } from '../domain/channels.js';
import { errorSummary } from '../domain/error-summary.js';
import type { ChannelLane } from './channel-lane.js';
import type { DeliveryLedger } from './delivery-ledger.js';
import type { LaneDeps } from './lane-deps.js';
import { isOlderAttemptCopy } from './older-attempt.js';
import type { BatchRecord } from './pacing/batch-record.js';
import { heldNoticeSighted } from './pacing/landed-after-all.js';
import type { Sighting } from './ports.js';
import type { Witness } from './witness.js';

/**
 * Where the platform's events for our own messages enter the pipeline (`Delivery.witnessed`): noted by the
 * witness, then handled by the channel's lane when it knows the post (in the air, in doubt, just confirmed,
 * watched after a repeat); otherwise, when the event names the delivery's key (Slack), by its ledger record:
 * - posted under another message id: this one is an extra copy (landed late, or posted by a replica that
 *   decided it absent): removed through the channel's lane;
 * - still attempting (in the air or in doubt on another replica, or left by a dead one): the sighting is
 *   stored for whichever replica decides the doubt, unless it is a late copy of an attempt older than the
 *   record's latest, which is removed (older-attempt.ts);
 * - held for a catch-up (decided absent, then its repeat refused): it landed after all, and stands once
 *   (pacing/landed-after-all.ts);
 * - posted under this id, or unknown: nothing to do.
 * An event naming only a mark (Discord's nonce) is matched by its lane: a notice it holds after a doubt (by
 * the mark it remembers); any other is only noted.
 *
 * Cost per event: none when this process posted it (its lane matches it in memory); else one ledger read,
 * and one small write when the delivery is still in doubt.
 */
export function createSightingIntake(deps: {
  readonly witness: Witness;
  readonly ledger: DeliveryLedger;
  readonly laneOf: (channel: ChannelRef) => ChannelLane;
  readonly existingLane: (channel: ChannelRef) => ChannelLane | undefined;
  /** The lanes of this process (the workspace's doubts wake when the witness passes their time). */
  readonly lanes: () => Iterable<ChannelLane>;
  readonly logger: LaneDeps['logger'];
  readonly observer: LaneDeps['observer'];
  readonly track: <T>(work: Promise<T>) => Promise<T>;
  /** A held notice's batch (open or posted). */
  readonly batch: (id: string) => Promise<BatchRecord | undefined>;
}) {
  const { witness, ledger } = deps;

  async function byLedger(sighting: Sighting, key: string): Promise<void> {
    const suffix = `@${channelKey(sighting.channel)}`;
    // Another channel's delivery (a key that does not end with this channel) is not this channel's copy.
    if (!key.endsWith(suffix)) return;
    const id = key.slice(0, -suffix.length);
    const record = await ledger.get({ id, channel: sighting.channel });
    if (record?.state === 'posted' && record.messageId !== undefined) {
      if (record.messageId !== sighting.messageId)
        deps.laneOf(sighting.channel).removeCopies(id, record.messageId, [sighting.messageId]);
      return;
    }
    if (isOlderAttemptCopy(sighting, record, witness))
      deps.laneOf(sighting.channel).removeOlderCopy(id, sighting);
    else if (record?.state === 'attempting') await witness.store(key, sighting.messageId);
    if (record?.state === 'held') {
      const removeCopy = (channel: ChannelRef, of: string, canonical: string, copy: string) =>
        deps.laneOf(channel).removeCopies(of, canonical, [copy]);
      await heldNoticeSighted(
        { ledger, removeCopy, batch: deps.batch },
        { id, channel: sighting.channel },
        record,
        sighting.messageId,
      );
    }
  }

  return (sighting: Sighting): void => {
    witness.note(sighting);
    deps.observer.sighted?.({ channel: sighting.channel, messageId: sighting.messageId });
    const passed = witness.passed(sighting.channel);
    if (passed !== undefined) {
      const { platform, workspaceId } = sighting.channel;
      for (const lane of deps.lanes())
        if (lane.channel.platform === platform && lane.channel.workspaceId === workspaceId)
          lane.witnessPassed(passed);
    }
    const lane = deps.existingLane(sighting.channel);
    if (lane?.sighted(sighting)) return;
    // Discord names our messages by nonce only: a notice held after a doubt is known to its lane by it.
    const key = sighting.key ?? lane?.heldKeyOf(sighting);
    if (key === undefined) return;
    void deps.track(
      byLedger(sighting, key).catch((error: unknown) =>
        deps.logger.warn(
          { channel: channelKey(sighting.channel), ...errorSummary(error) },
          'a sighting of our own post could not be checked against its record',
        ),
      ),
    );
  };
}
