/**
 * The chat journey's notices: things happen on the platform (the simulator's controls) and the subscribed
 * channel shows them, rendered natively, with the figures read in the same cycle, stranger's text inert,
 * supporter-only content left out, and corrections as edits of what was posted.
 */
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.js';
import type { ChatDriver, RenderedText } from './chat-driver.js';
import { type ChatJourneyState, euros, postsWith, waitForPost } from './chat-journey-state.js';
import { journeyProject, journeyRewards, readmeFigures, readmeSupporter } from './journey-project.js';
import { journeyStep } from './known-defects.js';

/** A wall post by a stranger that tries to ping everyone, broadcast to the channel, link and format. */
export const hostileWall = {
  authorName: '@everyone <!channel>',
  message: 'Hey @everyone <!channel> <@U0ADMIN> [free money](https://evil.example/claim) **now**',
};
export const supporterOnlyPost = {
  title: 'Backstage: the first panel',
  teaser: 'A first look at the panel, for our supporters.',
  body: 'SUPPORTER-ONLY-BODY the factory numbers are 4711 panels at 38 euros',
};

export function registerNoticeSteps<D extends ChatDriver>(state: ChatJourneyState<D>): void {
  journeyStep(
    'a new supporter reaches the channel at the next poll, as a native message with the project footer',
    undefined,
    async () => {
      state.found.readmeSupporterKey = state.world.project.addSupporter(readmeSupporter);
      const notice = await waitForPost(state.driver, readmeSupporter.displayName, 'the supporter notice');
      state.found.readmeNotice = notice;
      expect(notice.channel).toBe(state.driver.channel);
      expect(notice.shape).toBe(state.driver.platform === 'discord' ? 'embed' : 'blocks');
      expect(notice.text).toContain(`🎉 New supporter: ${readmeSupporter.displayName}`);
      expect(notice.text).toContain(`Project ${journeyProject}`);
    },
  );

  journeyStep(
    `the supporter notice states the figures as the README's first example shows them: "${readmeFigures}"`,
    undefined,
    async () => {
      const notice = state.found.readmeNotice!;
      // The figures are the project's own, read in the same cycle: the simulator's truth at that moment.
      expect(state.world.project.supporterCount).toBe(16);
      expect(state.world.project.currentFunding).toBe(3_912);
      expect(notice.text).toContain(readmeFigures);
    },
  );

  journeyStep(
    "a stranger's wall post with @everyone, <!channel>, a mention and a markdown link reaches the channel inert",
    undefined,
    async () => {
      const { driver } = state;
      state.found.hostileWallPostId = state.world.project.addWallPost(hostileWall);
      const notice = await waitForPost(driver, 'free money', 'the wall notice');
      state.found.hostileNotice = notice;
      // Readers see the words as written (the message's <…> is taken for HTML and dropped by the engine)...
      expect(notice.text).toContain(`💬 New wall post by ${hostileWall.authorName}`);
      expect(notice.text).toContain('Hey @everyone');
      expect(notice.text).toContain('[free money](https://evil.example/claim)');
      // ...but nothing in the rendered message pings, broadcasts, links or formats.
      expectInert(driver, notice.raw);
      if (driver.platform === 'discord') expect(notice.allowedMentions).toEqual({ parse: [] });
    },
  );

  journeyStep(
    'a supporter-only blog post shows its public teaser with the badge; its body reaches no channel',
    undefined,
    async () => {
      state.world.project.addBlogPost({
        title: supporterOnlyPost.title,
        description: supporterOnlyPost.teaser,
        text: `<p>${supporterOnlyPost.body}</p>`,
        type: 'text',
        supporterOnly: true,
      });
      const notice = await waitForPost(state.driver, supporterOnlyPost.title, 'the blog notice');
      expect(notice.text).toContain(`📝 New blog post: ${supporterOnlyPost.title}`);
      expect(notice.text).toContain('supporters only');
      expect(notice.text).toContain(supporterOnlyPost.teaser);
      expect(state.driver.recordedText()).not.toContain('SUPPORTER-ONLY-BODY');
      expect(state.bot.output()).not.toContain('SUPPORTER-ONLY-BODY');
    },
  );

  journeyStep(
    'one support of €1,500 for the last kit: the supporter, the 50% milestone, the reward unlocked and the reward sold out',
    undefined,
    async () => {
      const { driver, world } = state;
      world.project.addSupporter({
        displayName: 'Ökodorf e.V.',
        amount: 1_500,
        rewardIds: [journeyRewards.lastKit],
      });
      await waitForPost(driver, '🎉 New supporter: Ökodorf e.V.', 'the supporter notice');
      const milestone = await waitForPost(driver, '50% of the funding goal reached', 'the milestone notice');
      expect(milestone.text).toContain(`${euros(world.project.currentFunding)} of ${euros(10_000)}`);
      expect(milestone.text).toMatch(/[▰▱]{10} 5\d%/);
      const unlocked = await waitForPost(
        driver,
        '🔓 Unlocked: Community workshop day',
        'the unlocked notice',
      );
      expect(unlocked.text).toContain(`Price ${euros(90)}`);
      const soldOut = await waitForPost(driver, 'Sold out: Early-bird kiosk kit', 'the sold-out notice');
      expect(soldOut.text).toContain(`Price ${euros(120)}`);
    },
  );

  journeyStep(
    'a support that drops out before payout: the notice that announced it is edited, struck through with the reason',
    undefined,
    async () => {
      const { driver, world, found } = state;
      world.project.failSupport(found.readmeSupporterKey!);
      const edit = await waitUntil(
        "the edit of Małgosia's notice",
        () => driver.edits().find((e) => e.id === found.readmeNotice!.id),
        { timeoutMs: 15_000 },
      );
      expect(edit.channel).toBe(found.readmeNotice!.channel);
      expect(edit.text).toContain(readmeSupporter.displayName);
      expect(edit.text).toContain('Withdrawn: the support left the public list');
      expect(edit.raw.map((r) => r.text).join('\n')).toMatch(
        driver.platform === 'discord' ? /~~🎉 New supporter/ : /~🎉 New supporter/,
      );
      // A correction is an edit, never a second message.
      expect(postsWith(driver, readmeSupporter.displayName)).toHaveLength(1);
    },
  );

  journeyStep(
    'a deleted wall post: its notice is edited, struck through with the reason',
    undefined,
    async () => {
      const { driver, world, found } = state;
      world.project.removeWallPost(found.hostileWallPostId!);
      const edit = await waitUntil(
        'the edit of the wall notice',
        () => driver.edits().find((e) => e.id === found.hostileNotice!.id),
        { timeoutMs: 15_000 },
      );
      expect(edit.text).toContain('Withdrawn: the wall post was deleted.');
      expectInert(driver, edit.raw);
    },
  );
}

/** Nothing in the rendered strings pings, broadcasts, links or formats on the platform. */
export function expectInert(driver: ChatDriver, raw: readonly RenderedText[]): void {
  for (const { text, parsed, notification } of raw) {
    if (driver.platform === 'discord') {
      // Discord pings on the bare word (were allowed_mentions ever missing); in every string, parsed or not.
      expect(text, 'no @everyone/@here').not.toMatch(/@(everyone|here)/i);
      if (!parsed) continue;
      expect(text, 'no <@id>, <#id>, <!…>, <https://…>').not.toMatch(/<[@#!/:&a-z]/i);
      expect(text, 'no auto-linked URL').not.toMatch(/:\/\//);
      // What is left once every backslash escape is taken out is what Discord's markdown would read.
      const bare = text.replace(/\\[\s\S]/g, '');
      expect(bare, 'no masked link, no emphasis').not.toMatch(/\]\(|\*\*/);
    } else {
      // Slack pings only through <!…> and <@…> (fundbot never sets link_names); plain_text is not parsed at all.
      if (!parsed) continue;
      expect(text, 'no <!channel>, <!everyone>, <@U…>, <https://…|…>').not.toMatch(/<[!@#]|<https?:/i);
      if (!notification) expect(text, 'no bold from user text').not.toContain('**now**');
    }
  }
}
