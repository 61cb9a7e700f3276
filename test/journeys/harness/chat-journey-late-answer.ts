/**
 * The chat journey's late answer (issue 29): the platform takes a supporter notice but answers it, and lands its
 * message, 35 s later, long after the bot's client gave up (Slack 10 s, Discord 15 s) and past the 15 s the old
 * look covered. The channel shows the supporter once: the bot either finds the late post before it would post
 * again, or posts again and removes the late copy the moment the platform's event (or, without one, a look)
 * shows it. What the bot decided is read from its log, what the channel shows from the fake.
 */
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.js';
import type { LogLine } from './bot-process.js';
import type { ChatDriver } from './chat-driver.js';
import { type ChatJourneyState, postsWith } from './chat-journey-state.js';
import { journeyStep } from './known-defects.js';

const lateMs = 35_000;
const lateSupporter = 'Lark Latecomer';
/** How long a second copy may stand beside the first (the "a few seconds"). */
const mayStandTwiceMs = 5_000;
/** Without the platform's events a Slack doubt waits for a look covering 90 s after the attempt. */
const decidedWithinMs = lateMs + 120_000;

export function registerLateAnswerSteps<D extends ChatDriver>(state: ChatJourneyState<D>): void {
  journeyStep(
    `a supporter notice the platform answers and lands ${lateMs / 1000} s late shows once in the channel`,
    undefined,
    async () => {
      const { driver, bot } = state;
      const earlier = new Set(bot.logLines());
      const isNew = (pattern: RegExp) => (line: LogLine) =>
        !earlier.has(line) && pattern.test(String(line.msg ?? ''));
      // Sampled while the step runs: the longest stretch two copies stood together.
      let twiceSince: number | undefined;
      let stoodTwiceMs = 0;
      const sample = setInterval(() => {
        const copies = postsWith(driver, lateSupporter).length;
        if (copies > 1) twiceSince ??= Date.now();
        else twiceSince = undefined;
        if (twiceSince !== undefined) stoodTwiceMs = Math.max(stoodTwiceMs, Date.now() - twiceSince);
      }, 50);
      const late = driver.answerNextPostLate(lateMs);
      try {
        state.world.project.addSupporter({ displayName: lateSupporter });
        const decision = await bot.waitForLog(
          isNew(/^notice in doubt had/),
          'the bot to decide the notice whose answer was lost',
          decidedWithinMs,
        );
        await waitUntil('the late post to land', () => late.landed(), { timeoutMs: decidedWithinMs });
        if (decision['outcome'] === 'absent') {
          // Posted again: the late landing is an extra copy, removed when the bot sees it.
          await bot.waitForLog(
            isNew(/^extra copy of a notice removed/),
            'the late copy to be removed',
            decidedWithinMs,
          );
        }
        await waitUntil(
          'one copy of the notice in the channel',
          () => postsWith(driver, lateSupporter).length === 1,
          { timeoutMs: mayStandTwiceMs },
        );
        expect(postsWith(driver, lateSupporter)).toHaveLength(1);
        expect(stoodTwiceMs, 'how long two copies of the notice stood together').toBeLessThanOrEqual(
          mayStandTwiceMs,
        );
      } finally {
        clearInterval(sample);
        late.done();
      }
    },
    2 * decidedWithinMs,
  );
}
