/**
 * Journey (issue 32, item 3c): a member's reward watch on the compiled entry (`node dist/src/main.js`, as the image
 * runs it), on Slack over HTTP and on Discord over the gateway, driven only from outside: signed slash commands, the
 * simulator's supports (one sells the last kit out, a failed one gives it back), and the fake's direct messages (Slack
 * conversations.open, Discord POST /users/@me/channels). A member watches the sold-out kit; the restock sends them
 * exactly one direct message and ends the watch; a second restock sends none. The two platforms run side by side
 * (`describe.concurrent.each`), each with its own world, fake and bot.
 */
import { beforeAll, describe, expect } from 'vitest';
import type { FundingKey } from '../../src/simulator/types.js';
import { waitUntil } from '../support/wait-until.js';
import type { BotProcess } from './harness/bot-process.js';
import { startChatBot, writeChatBotConfig } from './harness/chat-bot.js';
import type { ChatDriver } from './harness/chat-driver.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { startDiscordDriver } from './harness/discord-driver.js';
import { journeyHooks } from './harness/journey-hooks.js';
import { journeyProject, journeyRewards } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

interface Platform {
  readonly name: string;
  readonly start: () => Promise<ChatDriver>;
  /** The bot's direct messages to the member who runs the driver's commands, as text. */
  readonly dms: (driver: ChatDriver) => readonly string[];
  /** How a member types the reward on this platform (Slack: the words; Discord: the option's value). */
  readonly rewardArgs: readonly string[];
}

const platforms: readonly Platform[] = [
  {
    name: 'Slack over HTTP',
    start: () => startSlackDriver('http'),
    dms: (driver) =>
      (driver as Awaited<ReturnType<typeof startSlackDriver>>).fake
        .directMessagesTo('U0MEMBER')
        .map((m) => JSON.stringify(m)),
    rewardArgs: ['reward', String(journeyRewards.lastKit)],
  },
  {
    name: 'Discord over the gateway',
    start: () => startDiscordDriver('gateway'),
    dms: (driver) =>
      (driver as Awaited<ReturnType<typeof startDiscordDriver>>).fake
        .directMessagesTo('300000000000000001')
        .map((m) => JSON.stringify(m)),
    rewardArgs: [String(journeyRewards.lastKit)],
  },
];

describe.concurrent.each(platforms)(
  'journey: a member watches a sold-out reward ($name)',
  ({ name, start, dms, rewardArgs }) => {
    let world: JourneyWorld;
    let driver: ChatDriver;
    let bot: BotProcess;
    let buyer: FundingKey | undefined;

    beforeAll(async () => {
      world = await startJourneyWorld(`reward-dm-watch-${name.split(' ')[0]?.toLowerCase()}`);
      driver = await start();
    });
    journeyHooks(() => ({ bot, driver, world }));

    const inChannel = (text: string) =>
      driver.posts().filter((p) => p.channel === driver.channel && p.text.includes(text));
    const sellOut = async (count: number) => {
      buyer = world.sim
        .project(journeyProject)
        .addSupporter({ rewardIds: [journeyRewards.lastKit], amount: 120 });
      await waitUntil('the sold-out notice', () => inChannel('Sold out').length >= count, {
        timeoutMs: 45_000,
      });
    };
    const restock = async (count: number) => {
      if (!buyer) throw new Error('no buyer to cancel');
      world.sim.project(journeyProject).failSupport(buyer);
      await waitUntil('the back-in-stock notice', () => inChannel('Back in stock').length >= count, {
        timeoutMs: 45_000,
      });
    };

    const morePolls = async (count: number) => {
      const polled = world.sim.requests.length;
      await waitUntil(
        'more polls of the rewards',
        () => world.sim.requests.slice(polled).filter((r) => r.path.endsWith('/incentives')).length >= count,
        { timeoutMs: 45_000 },
      );
    };

    journeyStep(
      'the last kit sells out; a member watches it (one on sale now is refused); /watch lists it',
      undefined,
      async () => {
        const config = await writeChatBotConfig(world, driver);
        bot = startChatBot(world, driver, {
          name: `fundbot (reward dm watch, ${name})`,
          config,
          entry: compiledEntry(),
        });
        await driver.connected(bot);
        await driver.command('subscribe', [journeyProject, 'rewards'], { admin: true }).answer();
        await sellOut(1);
        const onSale = await driver.command('watch', [String(journeyRewards.postcard)]).answer();
        expect(onSale.text).toContain('available now');
        const watched = await driver.command('watch', rewardArgs).answer();
        expect(watched.text).toContain('you get one direct message when it can be ordered again');
        expect((await driver.command('watch').answer()).text).toContain(
          `#${journeyRewards.lastKit} in ${journeyProject}`,
        );
        expect(dms(driver)).toEqual([]);
      },
      150_000,
    );

    journeyStep(
      'a failed support gives the kit back: the member gets exactly one direct message, and the watch ends',
      undefined,
      async () => {
        await restock(1);
        await waitUntil('the direct message', () => dms(driver).length >= 1, { timeoutMs: 30_000 });
        const [message] = dms(driver);
        expect(message).toContain('Back in stock');
        expect(message).toContain('Early-bird kiosk kit');
        // The link to the project, where it can be ordered.
        expect(message).toContain(`/${journeyProject}`);
        // More polls later: still one.
        await morePolls(3);
        expect(dms(driver)).toHaveLength(1);
        expect((await driver.command('watch').answer()).text).toContain('You watch no rewards');
      },
      120_000,
    );

    journeyStep(
      'a second sell-out and restock: the channel is told again, the member gets no second message',
      undefined,
      async () => {
        await sellOut(2);
        await restock(2);
        await morePolls(2);
        expect(dms(driver)).toHaveLength(1);
        const { code } = await bot.stop('SIGTERM');
        expect(code).toBe(0);
      },
      150_000,
    );
  },
);
