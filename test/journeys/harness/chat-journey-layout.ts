/**
 * The chat journey's look at what the notices posted so far show: each figure once and consistent, each badge
 * once, a title that shows something. Issue 23 lists these layout defects; the steps read the messages the
 * earlier steps brought about, plus one blog post whose title is nothing but invisible characters.
 */
import { expect } from 'vitest';
import type { ChatDriver } from './chat-driver.js';
import { type ChatJourneyState, postsWith, waitForPost } from './chat-journey-state.js';
import { journeyStep } from './known-defects.js';

export function registerLayoutSteps<D extends ChatDriver>(state: ChatJourneyState<D>): void {
  journeyStep('the milestone notice shows its progress bar once', undefined, async () => {
    const milestone = postsWith(state.driver, 'of the funding goal reached')[0];
    expect(milestone?.text.match(/[▰▱]{10}/g)).toHaveLength(1);
  });

  journeyStep('"now watching" states one percentage of the goal, not two', undefined, async () => {
    const watching = state.found.firstSubscribe?.messages()[1];
    const percentages = new Set(watching?.text.match(/\d+(\.\d+)?%/g));
    expect(watching?.text).toContain('now watching');
    expect([...percentages]).toHaveLength(1);
  });

  journeyStep('the sold-out notice says "sold out" once', undefined, async () => {
    const soldOut = postsWith(state.driver, 'Early-bird kiosk kit').find((p) => /sold out/i.test(p.text));
    expect(soldOut?.text.match(/sold out/gi)).toHaveLength(1);
  });

  journeyStep(
    'a blog post titled only with invisible characters is still announced with a visible title',
    undefined,
    async () => {
      state.world.project.addBlogPost({
        title: '\u200b\u200d\u2060\u200b',
        description: 'Teaser of the post with the invisible title.',
        text: '<p>Public text.</p>',
        type: 'text',
        supporterOnly: false,
      });
      const notice = await waitForPost(state.driver, 'the post with the invisible title', 'the blog notice');
      const title = /📝 New blog post:(.*)/.exec(notice.text)?.[1] ?? '';
      expect(title.trim()).not.toBe('');
    },
  );
}
