/**
 * The delivery-faults bench's late answers (issue 29): posts the platform TAKES but answers and lands late,
 * 25, 35, 60 and 90 s after they were sent (the bot's client gives up after 10 s on Slack, 15 s on Discord), on
 * Slack live notices, Slack batches and Discord live notices. Discord keeps a nonce for a short, undocumented
 * window (the fake: 15 s here), so a late Discord message after the bot's repeat is a second message unless the
 * bot removes it.
 *
 * Judged from the fakes: a supporter named by two messages standing at the same moment for more than
 * {@link shownTwiceLimitMs} is a duplicate, as is one named twice at the end.
 */
import type { FakeDiscord } from '../../test/fakes/discord/fake-discord.js';
import { lateCreate } from '../../test/fakes/discord/fake-discord.js';
import { type FakeSlack, lateAnswer } from '../../test/fakes/slack/fake-slack.js';
import type { ShownMessage } from './landed.js';
import { shownTwice } from './landed.js';

export const lateAnswerMs = [25_000, 35_000, 60_000, 90_000] as const;

/** A copy standing beside the one that counts for longer than this is a duplicate readers saw. */
export const shownTwiceLimitMs = 5_000;

/** The fake Discord's nonce window in this bench: short, as Discord's is (the bot counts on 2 minutes). */
export const benchNonceWindowMs = 15_000;

export interface LateAnswerTarget {
  readonly slack: FakeSlack;
  readonly discord: FakeDiscord;
  readonly slackLive: string;
  readonly slackBatch: string;
}

interface Arming {
  /** ms after the arrivals began. */
  readonly atMs: number;
  readonly where: 'slack-live' | 'slack-batch' | 'discord-live';
  readonly lateMs: number;
}

/**
 * When each late answer is armed: the next post to that channel gets it. Live ones between the scripted faults
 * of run-delivery-faults.ts; batch ones before each batch window (a minute) ends.
 */
export const lateArmings: readonly Arming[] = [
  { atMs: 8_000, where: 'slack-live', lateMs: 25_000 },
  { atMs: 60_000, where: 'slack-live', lateMs: 35_000 },
  { atMs: 100_000, where: 'slack-live', lateMs: 60_000 },
  { atMs: 128_000, where: 'slack-live', lateMs: 90_000 },
  { atMs: 5_000, where: 'slack-batch', lateMs: 25_000 },
  { atMs: 65_000, where: 'slack-batch', lateMs: 35_000 },
  { atMs: 125_000, where: 'slack-batch', lateMs: 60_000 },
  { atMs: 185_000, where: 'slack-batch', lateMs: 90_000 },
  { atMs: 12_000, where: 'discord-live', lateMs: 25_000 },
  { atMs: 85_000, where: 'discord-live', lateMs: 35_000 },
  { atMs: 110_000, where: 'discord-live', lateMs: 60_000 },
  { atMs: 165_000, where: 'discord-live', lateMs: 90_000 },
];

/** Arms one late answer on its platform: the next post to the channel is taken, answered and landed late. */
export function armLateAnswer(target: LateAnswerTarget, arming: Arming): void {
  if (arming.where === 'discord-live') target.discord.faultMessages(lateCreate(arming.lateMs), 1);
  else
    target.slack.fail(
      'chat.postMessage',
      lateAnswer(arming.lateMs),
      1,
      arming.where === 'slack-live' ? target.slackLive : target.slackBatch,
    );
}

/**
 * After the last armed late landing: when every late post has landed (its post may wait up to a batch window
 * and a minute more for its channel), plus the seconds the bot has to remove a late copy.
 */
export const lateLandingsOverMs = Math.max(...lateArmings.map((a) => a.atMs + a.lateMs)) + 60_000 + 15_000;

export interface LateAnswerFigures {
  readonly armed: number;
  /** Supporters two messages named at once for more than the limit, or still at the end. */
  readonly duplicates: number;
  /** The longest two messages naming one supporter stood together (removed copies included). */
  readonly maxShownTwiceMs: number;
  /** Copies the bot removed (Slack chat.delete, Discord Delete Message). */
  readonly removedCopies: number;
}

export function lateAnswerFigures(
  shown: readonly (readonly ShownMessage[])[],
  end: number,
  removedCopies: number,
): LateAnswerFigures {
  let duplicates = 0;
  let maxShownTwiceMs = 0;
  for (const channel of shown) {
    for (const ms of shownTwice(channel, end).values()) {
      maxShownTwiceMs = Math.max(maxShownTwiceMs, ms);
      if (ms > shownTwiceLimitMs) duplicates += 1;
    }
  }
  return {
    armed: lateArmings.length,
    duplicates,
    maxShownTwiceMs: Math.round(maxShownTwiceMs),
    removedCopies,
  };
}
