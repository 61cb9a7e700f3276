/**
 * Journey (issue 32, item 5): the weekly roll-call on the compiled entry (`node dist/src/main.js`, as the image runs
 * it), on Slack over HTTP and on Discord over the gateway, driven only from outside: signed slash commands, the
 * simulator's supporters, the fake's channel. The roll-call falls on today's weekday at the first whole minute 75 s
 * from now (`campaign.rollCallWeekday`, `rollCallTime`; Monday 10:00 by default). A member may not turn it on; an
 * admin does. 45 supporters come in, one with @everyone, <!channel> and a link in the name: one roll-call names every
 * one of them (the rest in its thread), inert, with the total they bring; a restart posts no second one. The two
 * platforms run side by side (`describe.concurrent.each`), each with its own world, fake and bot.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect } from 'vitest';
import { waitUntil } from '../support/wait-until.js';
import type { BotProcess } from './harness/bot-process.js';
import { startChatBot, writeChatBotConfig } from './harness/chat-bot.js';
import type { ChannelPost, ChatDriver } from './harness/chat-driver.js';
import { expectInert } from './harness/chat-journey-notices.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { startDiscordDriver } from './harness/discord-driver.js';
import { journeyHooks } from './harness/journey-hooks.js';
import { journeyProject } from './harness/journey-project.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { startSlackDriver } from './harness/slack-driver.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

const platforms: readonly { name: string; start: () => Promise<ChatDriver> }[] = [
  { name: 'Slack over HTTP', start: () => startSlackDriver('http') },
  { name: 'Discord over the gateway', start: () => startDiscordDriver('gateway') },
];
const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const hostile = 'Ping @everyone <!channel> <https://evil.example|click>';
/** Long names: together more than one message holds, so the roll-call continues in its thread. */
const names = [
  ...Array.from(
    { length: 44 },
    (_, i) => `Roll Backer ${String(i + 1).padStart(2, '0')} of the Solar Kiosk crowd by the river Spree`,
  ),
  hostile,
];

describe.concurrent.each(platforms)('journey: the roll-call ($name)', ({ name, start }) => {
  let world: JourneyWorld;
  let driver: ChatDriver;
  let bot: BotProcess;
  let config = '';
  /** When the roll-call is due (ms). */
  let rollCallAt = 0;

  beforeAll(async () => {
    world = await startJourneyWorld(`roll-call-${name.split(' ')[0]?.toLowerCase()}`);
    driver = await start();
  });
  journeyHooks(() => ({ bot, driver, world }));

  const startBot = () =>
    startChatBot(world, driver, { name: `fundbot (roll-call, ${name})`, config, entry: compiledEntry() });
  const rollCalls = () => driver.posts().filter((p) => p.text.includes('Thank you!'));
  /** The roll-call's thread: Slack replies to it; on Discord a thread is a channel named by its parent's id. */
  const threadOf = (parent: ChannelPost) =>
    driver.posts().filter((p) => p.threadOf === parent.id || (p.channel === parent.id && p.id !== parent.id));

  journeyStep(
    'an admin turns the weekly roll-call on (a member may not); /subscriptions shows it',
    undefined,
    async () => {
      // The first whole minute at least 75 s from now, on UTC (the channels' clock here): today's weekday at that
      // minute. The set-up takes about 25 s on the loaded 2-core machine, and the supporters are polled in seconds.
      rollCallAt = Math.ceil((Date.now() + 75_000) / 60_000) * 60_000;
      const at = new Date(rollCallAt);
      config = await writeChatBotConfig(world, driver, {
        campaign: {
          rollCallWeekday: weekdays[at.getUTCDay()],
          rollCallTime: at.toISOString().slice(11, 16),
          checkEverySec: 5,
        },
      });
      bot = startBot();
      await driver.connected(bot);
      await driver.command('subscribe', [journeyProject], { admin: true }).answer();
      const refused = await driver.command('rollcall', ['weekly']).answer();
      expect(refused.text).not.toContain('Roll-call on');
      const set = await driver.command('rollcall', ['weekly'], { admin: true }).answer();
      expect(set.text).toContain('Roll-call on: every week');
      expect((await driver.command('subscriptions').answer()).text).toContain('Roll-call: weekly');
    },
    120_000,
  );

  journeyStep(
    '45 supporters: one roll-call names every one (the rest in its thread), inert, with the total',
    undefined,
    async () => {
      expect(Date.now(), 'the set-up ended 10 s before the roll-call minute').toBeLessThan(
        rollCallAt - 10_000,
      );
      for (const displayName of names) world.project.addSupporter({ displayName, amount: 20 });
      await waitUntil('the roll-call', () => rollCalls()[0], { timeoutMs: 180_000 });
      const [rollCall] = rollCalls();
      if (!rollCall) throw new Error('no roll-call');
      expect(rollCall.text).toContain('45 new supporters since');
      expect(rollCall.text).toContain('Together you bring our total to €4,650');
      expect(rollCall.text).toContain('all named in the thread');
      await waitUntil('the names continued in its thread', () => threadOf(rollCall).length > 0, {
        timeoutMs: 30_000,
      });
      const all = [rollCall, ...threadOf(rollCall)];
      const text = all.map((p) => p.text).join('\n');
      for (const supporter of names.slice(0, 44)) expect(text).toContain(supporter);
      expect(text).toContain('Ping');
      for (const post of all) expectInert(driver, post.raw);
    },
    240_000,
  );

  journeyStep(
    'a restart: the roll-call is not posted again',
    undefined,
    async () => {
      expect((await bot.stop('SIGTERM')).code).toBe(0);
      // At debug the bot says when a round of campaign checks is done, after any post it made: the catch-up
      // check at start (the one a restart would repost from) and two scheduled ones (every 5 s), not a fixed time.
      config = world.writeConfig({ ...JSON.parse(readFileSync(config, 'utf8')), logLevel: 'debug' });
      bot = startBot();
      await driver.connected(bot);
      const checksDone = () => bot.logLines().filter((l) => l.msg === 'campaign checks done').length;
      await waitUntil('three campaign checks of the restarted bot', () => checksDone() >= 3, {
        timeoutMs: 60_000,
      });
      expect(rollCalls()).toHaveLength(1);
      expect((await bot.stop('SIGTERM')).code).toBe(0);
    },
    150_000,
  );
});
