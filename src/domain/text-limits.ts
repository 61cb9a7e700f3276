/**
 * Bounds for untrusted text in messages. They sit well under the tightest
 * platform limits (Discord: title 256, field name 256, field value 1024,
 * description 4096, 25 fields; Slack: header 150, section text 3000, 50 blocks),
 * so an adapter never has to cut our text and a hostile 5000-character name
 * cannot blow up a layout.
 */
export const limits = {
  /** A display name or author. */
  name: 60,
  /** A project, reward or blog title. */
  title: 120,
  /** A message title (already containing a name or title). */
  messageTitle: 200,
  /** A wall post message. */
  wallMessage: 500,
  /** A blog teaser. */
  teaser: 400,
  /** A reward description in a list. */
  rewardListDescription: 160,
  /** A reward description in the detail view. */
  rewardDescription: 900,
  /** A variation choice label. */
  choice: 60,
  /** A stale reason or an error line in /status. */
  reason: 160,
  /** Rewards shown by /rewards; the rest are counted. */
  rewardsShown: 10,
  /** Fields in one message (Discord allows 25). */
  fields: 24,
  /** Names listed in a burst notice. */
  burstNames: 5,
  /** Choices listed per variation group. */
  choicesShown: 20,
} as const;
