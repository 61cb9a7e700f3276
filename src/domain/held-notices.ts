/**
 * How long fundbot holds a notice it cannot post yet (fundbot lost access to the channel, a batch waiting for
 * its window): the one figure the code keeps them by (a batch record's life, and the delivery record's, which
 * must outlive it), the channels are told (`/subscriptions`, the "cannot post here" note, en and de) and the
 * README promises. `test/domain/held-notices.test.ts` reads the texts and the README against it.
 */
export const HELD_NOTICE_DAYS = 14;

/** {@link HELD_NOTICE_DAYS} in ms, for TTLs. */
export const heldNoticeMs = HELD_NOTICE_DAYS * 24 * 3_600_000;
