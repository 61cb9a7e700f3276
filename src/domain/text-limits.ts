/**
 * The one table of bounds for text in fundbot's messages: every cut of a name, a
 * title or a message, in the engine (what an event stores), the core (what a notice
 * or a command shows), the digest and the adapters, and every "show N, count the rest".
 * No other module keeps its own number.
 *
 * The text bounds sit well under the tightest platform limits (Discord: title 256,
 * field name 256, field value 1024, description 4096, 25 fields; Slack: header 150,
 * section text 3000, 50 blocks), so an adapter never has to cut our text and a
 * hostile 5000-character name cannot blow up a layout. The platforms' own limits
 * stay beside their renderers (slackLimits, discordLimits): they are facts about the
 * platform, not choices of ours.
 */
export const limits = {
  /** A display name or author. */
  name: 60,
  /** A project, reward or blog title. */
  title: 120,
  /** A message title (already containing a name or title). */
  messageTitle: 200,
  /** A wall post message (a notice, and the digest's latest post). */
  wallMessage: 500,
  /** A wall message quoted in a summary line (the digest's latest post). */
  quotedMessage: 200,
  /** A blog teaser in a notice. */
  teaser: 400,
  /** A blog teaser in the /blog list. */
  listTeaser: 300,
  /** A reward description in a list. */
  rewardListDescription: 160,
  /** A reward description in the detail view. */
  rewardDescription: 900,
  /** A variation choice label. */
  choice: 60,
  /** A stale reason or an error line in /status. */
  reason: 160,
  /** An API-drift line of /status: it names up to three changes. */
  driftLine: 300,
  /** A link's label. */
  linkLabel: 75,
  /** Characters of names in one batch message: well inside Slack's 3,000 and Discord's 4,096. */
  batchNames: 2_400,
  /** Rewards shown by /rewards; the rest are counted. */
  rewardsShown: 10,
  /** Supporters listed by /supporters. */
  supportersShown: 10,
  /** Posts listed by /blog. */
  postsShown: 5,
  /** Error lines shown by /status. */
  errorsShown: 5,
  /** Entries of a digest list (rewards sold, sold out, blog posts); the rest are counted. */
  digestListItems: 5,
  /** Names on the daily thread's parent: the latest reply's first few, the thread has the rest. */
  dailyThreadLatest: 3,
  /** Fields in one message (Discord allows 25). */
  fields: 24,
  /** Names listed in a burst notice. */
  burstNames: 5,
  /** Choices listed per variation group. */
  choicesShown: 20,
  /** Projects an error message names ("Watched projects: a, b and 3 more"). */
  projectsListed: 10,
  /** Autocomplete suggestions offered at once (Discord allows 25). */
  suggestions: 25,
  /** An autocomplete suggestion's name and value (Discord allows 100). */
  suggestion: 100,
} as const;
