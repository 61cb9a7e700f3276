import type { DeliveryRecord } from './delivery-ledger.js';
import type { Sighting } from './ports.js';
import type { Witness } from './witness.js';

/**
 * Whether a sighted copy is the late landing of an attempt older than the delivery's latest one, while that
 * latest attempt (a repeat) is still in doubt and may have landed where this process's events cannot have shown
 * it (chaos seed 26: a process decided a doubt absent, posted again and was killed before the repeat's answer;
 * the repeat landed while no process received events, and the first attempt landed 74 s late after the restart).
 *
 * Such a copy is removed at once, and the doubt is left to the repeat's own witnesses (its event, which Slack sends
 * again a minute later; a look; else, absent after its window, posted once more). Kept instead, it would decide
 * the doubt and the repeat's copy, whose id died with the process, would stand beside it until one of those came
 * (18.5 s in seed 26), since the workspace's one look a minute was spent on the doubt that led to the repeat.
 * Removing the older copy keeps the one readers saw first; its cost, when the repeat never landed, is a gap until
 * the repeat's doubt is decided (a notice shown late, never twice).
 *
 * Only when the events do not speak for the latest attempt: a process receiving them since before it knows the
 * repeat has not landed yet (its event would have come), so the older copy decides the doubt as before and a
 * later landing of the repeat is removed the moment it is sighted (no gap). The attempt is told by the message
 * (Slack: the block id, see `ChannelPoster.post`); a copy that does not carry it, or one of an attempt not older
 * than the record's (clocks of two replicas), is treated as before.
 */
export function isOlderAttemptCopy(
  sighting: Sighting,
  record: DeliveryRecord | undefined,
  witness: Pick<Witness, 'coveredSince'>,
): boolean {
  const latest = record?.state === 'attempting' ? record.attemptStartedAt : undefined;
  if (sighting.attemptAt === undefined || latest === undefined || sighting.attemptAt >= latest) return false;
  return !witness.coveredSince(sighting.channel, latest);
}
