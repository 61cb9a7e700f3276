/**
 * Journey (issue 32, item 4): goal-pace alerts on the compiled entry (`node dist/src/main.js`, as the image runs it),
 * on Slack over HTTP and on Discord over the gateway, driven only from outside: signed slash commands, the simulator's
 * supporters, the fake's channel. The window is one minute here (`campaign.paceWindowMinutes`, a day by default) and
 * the checks run every 5 s, so the journey takes about three minutes a platform. A member may not set the end; an admin
 * does. The first verdict (behind: nothing came in the first minute) is stored silently; €600 in a minute crosses to
 * "on track" (one alert, with a range, never one figure); a quiet minute crosses back to "behind" (one alert). Each
 * once. The two platforms run side by side (`describe.concurrent.each`), each with its own world, fake and bot.
 */
import { beforeAll, describe, expect } from 'vitest';
import { waitUntil } from '../support/wait-until.js';
import type { BotProcess } from './harness/bot-process.js';
import { startChatBot, writeChatBotConfig } from './harness/chat-bot.js';
import type { ChatDriver } from './harness/chat-driver.js';
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

/** Three days ahead (UTC, the channel's zone here): the end of that day. */
const endDate = new Date(Date.now() + 3 * 24 * 3_600_000).toISOString().slice(0, 10);

describe.concurrent.each(platforms)('journey: goal-pace alerts ($name)', ({ name, start }) => {
  let world: JourneyWorld;
  let driver: ChatDriver;
  let bot: BotProcess;
  let startedAt = 0;

  beforeAll(async () => {
    world = await startJourneyWorld(`pace-alert-${name.split(' ')[0]?.toLowerCase()}`);
    driver = await start();
  });
  journeyHooks(() => ({ bot, driver, world }));

  const onTrack = () => driver.posts().filter((p) => p.text.includes('On track for the goal'));
  const behind = () => driver.posts().filter((p) => p.text.includes('Behind the pace the goal needs'));

  journeyStep(
    'an admin subscribes the channel and sets the end; a member may not',
    undefined,
    async () => {
      const config = await writeChatBotConfig(world, driver, {
        campaign: { paceWindowMinutes: 1, paceMinSupporters: 3, checkEverySec: 5 },
        // At debug the bot says when a round of campaign checks is done (after its posts): the last step counts them.
        logLevel: 'debug',
      });
      bot = startChatBot(world, driver, {
        name: `fundbot (pace alert, ${name})`,
        config,
        entry: compiledEntry(),
      });
      await driver.connected(bot);
      startedAt = Date.now();
      await driver.command('subscribe', [journeyProject], { admin: true }).answer();
      const refused = await driver.command('deadline', [endDate]).answer();
      expect(refused.text).not.toContain('Campaign end');
      const bad = await driver.command('deadline', ['2026-02-30'], { admin: true }).answer();
      expect(bad.text).toContain('YYYY-MM-DD');
      const set = await driver.command('deadline', [endDate], { admin: true }).answer();
      expect(set.text).toContain(`Campaign end for ${journeyProject}`);
      expect(set.text).toContain('1 minute');
      const subscriptions = await driver.command('subscriptions').answer();
      expect(subscriptions.text).toContain(`Goal-pace alerts for ${journeyProject}: campaign ends`);
    },
    120_000,
  );

  journeyStep(
    'a first quiet minute is judged silently; €600 in the next minute: one "on track" alert with a range',
    undefined,
    async () => {
      // A full window of figures first: nothing may be said before it.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + 70_000 - Date.now())));
      expect(onTrack()).toHaveLength(0);
      expect(behind()).toHaveLength(0);
      for (const displayName of ['Pace Backer One', 'Pace Backer Two', 'Pace Backer Three']) {
        world.project.addSupporter({ displayName, amount: 200 });
      }
      await waitUntil('the on-track alert', () => onTrack().length > 0, { timeoutMs: 60_000 });
      const [alert] = onTrack();
      expect(alert?.text).toContain('At the pace of the last 1 minute:');
      // A range: two amounts joined by a dash, and what the goal needs.
      expect(alert?.text).toMatch(/€[\d,]+–€[\d,]+ by /);
      expect(alert?.text).toContain('(needed: €10,000)');
      expect(alert?.text).toContain('from 3 supports');
      expect(behind()).toHaveLength(0);
    },
    150_000,
  );

  journeyStep(
    'a quiet minute: one "behind" alert; more checks say nothing again',
    undefined,
    async () => {
      await waitUntil('the behind alert', () => behind().length > 0, { timeoutMs: 120_000 });
      expect(behind()[0]?.text).toContain('It needs');
      // Three more rounds of checks (the first may be the one that posted the alert, its line just after the post):
      // still one of each. Counted from the bot's own line, not a fixed 16 s, which a loaded machine could fill
      // with fewer checks.
      const checksDone = () => bot.logLines().filter((l) => l.msg === 'campaign checks done').length;
      const before = checksDone();
      await waitUntil('three more campaign checks', () => checksDone() >= before + 3, { timeoutMs: 60_000 });
      expect(onTrack()).toHaveLength(1);
      expect(behind()).toHaveLength(1);
      const { code } = await bot.stop('SIGTERM');
      expect(code).toBe(0);
    },
    160_000,
  );
});
