/**
 * Journey (issue 32, item 6): pings and filters on the compiled entry (`node dist/src/main.js`, as the image runs it),
 * on Slack (HTTP) and Discord (gateway), driven only from outside: slash commands, the simulator's supporters and wall.
 * An admin chooses a group pinged on milestones only: the 50% milestone mentions it (Discord: `allowed_mentions` naming
 * only that role; Slack: `<!subteam^ID>`), the supporter notice of the same support does not. `/filter wall deny spam`:
 * a wall post with "spam" is not posted and `/notices` shows it "filtered"; a stranger's @everyone and <!channel> stay
 * inert. `/subscriptions` lists both. The two platforms run side by side (`describe.concurrent.each`), each with its
 * own world, fake and bot.
 */
import { beforeAll, describe, expect } from 'vitest';
import { waitUntil } from '../support/wait-until.js';
import type { BotProcess } from './harness/bot-process.js';
import { startChatBot, writeChatBotConfig } from './harness/chat-bot.js';
import type { ChannelPost, ChatDriver } from './harness/chat-driver.js';
import { expectInert } from './harness/chat-journey-notices.js';
import { postsWith, waitForPost } from './harness/chat-journey-state.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { startDiscordDriver } from './harness/discord-driver.js';
import { journeyHooks } from './harness/journey-hooks.js';
import { journeyProject } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

const role = '300000000000000001';
const group = 'S0BACKERS1';

const platforms: readonly {
  name: string;
  start: () => Promise<ChatDriver>;
  /** How an admin names the group on this platform. */
  target: string;
  /** Whether a posted message pings the chosen group, and only it. */
  pings: (post: ChannelPost) => boolean;
}[] = [
  {
    name: 'Slack over HTTP',
    start: () => startSlackDriver('http'),
    target: `<!subteam^${group}|@backers>`,
    pings: (post) => post.raw.some((r) => r.parsed && r.text.includes(`<!subteam^${group}>`)),
  },
  {
    name: 'Discord over the gateway',
    start: () => startDiscordDriver('gateway'),
    target: `<@&${role}>`,
    pings: (post) =>
      JSON.stringify(post.allowedMentions) === JSON.stringify({ parse: [], roles: [role] }) &&
      post.raw.some((r) => r.text === `<@&${role}>`),
  },
];

describe.concurrent.each(platforms)('journey: pings and filters ($name)', (platform) => {
  let world: JourneyWorld;
  let driver: ChatDriver;
  let bot: BotProcess;

  beforeAll(async () => {
    world = await startJourneyWorld(`pings-filters-${platform.name.split(' ')[0]?.toLowerCase()}`);
    driver = await platform.start();
  });
  journeyHooks(() => ({ bot, driver, world }));

  journeyStep(
    'an admin chooses a group pinged on milestones and filters wall posts with "spam"; a member may not',
    undefined,
    async () => {
      const config = await writeChatBotConfig(world, driver);
      bot = startChatBot(world, driver, {
        name: `fundbot (pings and filters, ${platform.name})`,
        config,
        entry: compiledEntry(),
      });
      await driver.connected(bot);
      await driver
        .command('subscribe', [journeyProject, 'supporters', 'wall', 'milestones'], { admin: true })
        .answer();
      await driver.command('pacing', ['supporters', 'live'], { admin: true }).answer();
      const refused = await driver.command('ping', [platform.target]).answer();
      expect(refused.text).not.toContain('Pings on');
      const ping = await driver.command('ping', [platform.target, 'milestones'], { admin: true }).answer();
      expect(ping.text).toContain('Pings on');
      const everyone = await driver.command('ping', ['@everyone'], { admin: true }).answer();
      expect(everyone.text).toMatch(/Give a (role|user group)/);
      const filter = await driver.command('filter', ['wall', 'deny', 'spam'], { admin: true }).answer();
      expect(filter.text).toContain('Wall filter on');
      const subscriptions = await driver.command('subscriptions').answer();
      expect(subscriptions.text).toContain('Pings: the chosen group on milestones');
      expect(subscriptions.text).toContain('Wall filter: never "spam"');
    },
    120_000,
  );

  journeyStep(
    'a support crossing 50%: the milestone pings the group, the supporter notice does not',
    undefined,
    async () => {
      world.project.addSupporter({ displayName: 'Milo Majority', amount: 1_500 });
      const milestone = await waitForPost(
        driver,
        '50% of the funding goal reached',
        'the 50% milestone',
        60_000,
      );
      const supporter = await waitForPost(driver, 'Milo Majority', 'the supporter notice', 30_000);
      expect(platform.pings(milestone)).toBe(true);
      expect(platform.pings(supporter)).toBe(false);
      expect(JSON.stringify(supporter.raw)).not.toMatch(/subteam|<@&/);
    },
    90_000,
  );

  journeyStep(
    'a wall post with "spam" is filtered (shown so by /notices), the next one posted, a stranger\'s pings inert',
    undefined,
    async () => {
      world.project.addWallPost({ authorName: 'Sam Spammer', message: 'Cheap SPAM offers here' });
      world.project.addWallPost({ authorName: 'Nell Neighbour', message: 'Good luck @everyone <!channel>!' });
      const posted = await waitForPost(driver, 'Nell Neighbour', 'the wall post that passes', 60_000);
      expectInert(driver, posted.raw);
      expect(platform.pings(posted)).toBe(false);
      const notices = await waitUntil(
        'the filtered wall post in the trace',
        async () => {
          const answer = await driver.command('notices').answer();
          return answer.text.includes("filtered by this channel's filters") ? answer : undefined;
        },
        { timeoutMs: 30_000, everyMs: 1_000 },
      );
      expect(notices.text).toMatch(
        /Wall post \(names shown once posted\)[\s\S]*filtered by this channel's filters/,
      );
      expect(notices.text).not.toContain('Sam Spammer');
      expect(postsWith(driver, 'Sam Spammer')).toHaveLength(0);
      expect(postsWith(driver, 'SPAM')).toHaveLength(0);
      const { code } = await bot.stop('SIGTERM');
      expect(code).toBe(0);
    },
    90_000,
  );
});
