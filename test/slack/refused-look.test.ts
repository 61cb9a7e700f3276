/**
 * Issue 29 on Slack: a look at a channel the bot was removed from is refused (conversations.history answers
 * `not_in_channel`, as Slack does for a bot that is not a member; `channel_not_found` for a private channel).
 * A refused look decides nothing: the notice in doubt is neither taken as landed nor posted again while the
 * bot is out. Once it is invited back (seen by the access re-check), the doubt is looked at again and decided
 * within a look or two, and the notice stands once. The real Web API client and pipeline against the fake
 * Slack, on a virtual clock, without message events (the looks are the only witness).
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryObserver } from '../../src/delivery/index.js';
import { runFor } from '../delivery/pipeline-harness.js';
import { lateAnswer } from '../fakes/slack/fake-slack.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { eventIdsIn, historyIntervalMs, slackBotPerTest, slackChannel } from './slack-pipeline.js';

const campaign = slackChannel('C0CHAN');
const startBot = slackBotPerTest();

describe('Slack: a look refused while the bot is not in the channel', () => {
  it.each([
    { isPrivate: false, refusal: 'not_in_channel' },
    { isPrivate: true, refusal: 'channel_not_found' },
  ])(
    '$refusal: the doubt waits, undecided, and is decided once the bot is back',
    async ({ isPrivate, refusal }) => {
      const clock = new ManualClock(t0);
      const resolved: { outcome: string; at: number }[] = [];
      const observer: DeliveryObserver = {
        doubtResolved: ({ outcome }) => resolved.push({ outcome, at: clock.now() }),
      };
      const bot = await startBot(clock, { observer });
      const { fake } = bot;
      await bot.subscribe(campaign, ['supporters']);
      await bot.pacing.setKind(campaign, 'supporters', { mode: 'live' });
      fake.setChannel({ id: 'C0CHAN', isPrivate });
      // Slack takes the post but answers (and lands it) 35 s late: the client gives up, the notice is in doubt.
      fake.fail('chat.postMessage', lateAnswer(35_000), 1);
      const at = clock.now();
      await bot.offer(buildEvent.supporter({ id: 's1', occurredAt: at, detectedAt: at }));
      await bot.advance(1_000);
      // Removed from the channel right after (the post was taken: it lands all the same).
      fake.setChannel({ id: 'C0CHAN', isPrivate, isMember: false });
      await runFor(bot, 4 * 60_000, 5_000);
      const looks = fake.callsTo('conversations.history');
      expect(looks.length).toBeGreaterThan(0);
      expect(new Set(looks.map((c) => c.outcome))).toEqual(new Set([refusal]));
      // Neither found nor absent: a refused look says nothing of the post, and nothing was posted again.
      expect(resolved).toEqual([]);
      expect(fake.callsTo('chat.postMessage')).toHaveLength(1);

      fake.setChannel({ id: 'C0CHAN', isPrivate, isMember: true });
      const backAt = clock.now();
      await runFor(bot, 4 * 60_000, 5_000);
      // Seen back by the access re-check (within a minute), then a look (one a minute) finds the landed post.
      expect(resolved.map((r) => r.outcome)).toEqual(['found']);
      expect(resolved[0]?.at ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
        backAt + 60_000 + 2 * historyIntervalMs,
      );
      expect(eventIdsIn(fake, 'C0CHAN')).toHaveLength(1);
      expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    },
  );
});
