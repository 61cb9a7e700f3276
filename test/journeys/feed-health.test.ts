/**
 * Journey (issue 32, item 1): feed health in the channel, on the compiled entry (`node dist/src/main.js`, as the image
 * runs it) with Slack over HTTP, driven only from outside: the simulator's key controls, signed slash commands, the
 * Slack fake's channels. The key is revoked → after the hold (`engine.feedHealthHoldSec`, 10 s here instead of the
 * default 3 minutes, so the journey takes one minute) each subscribed channel gets ONE message saying what stopped, why
 * and who fixes it how, in its own language; the key restored → ONE message that it is back. Never the key in either.
 * The two platforms run side by side (`describe.concurrent.each`), each with its own world, fake and bot.
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

const holdSec = 10;

const platforms: readonly { name: string; start: () => Promise<ChatDriver> }[] = [
  { name: 'Slack over HTTP', start: () => startSlackDriver('http') },
  { name: 'Discord over the gateway', start: () => startDiscordDriver('gateway') },
];

describe.concurrent.each(platforms)('journey: feed health in the channel ($name)', ({ name, start }) => {
  let world: JourneyWorld;
  let driver: ChatDriver;
  let bot: BotProcess;

  beforeAll(async () => {
    world = await startJourneyWorld(`feed-health-${name.split(' ')[0]?.toLowerCase()}`);
    driver = await start();
  });
  journeyHooks(() => ({ bot, driver, world }));

  const stopPosts = (channel: string) =>
    driver.posts().filter((p) => p.channel === channel && /have stopped|sind gestoppt/.test(p.text));
  const backPosts = (channel: string) =>
    driver.posts().filter((p) => p.channel === channel && /are back|laufen wieder/.test(p.text));

  journeyStep(
    'fundbot runs; one channel subscribed in English, one in German',
    undefined,
    async () => {
      const config = await writeChatBotConfig(world, driver, {
        engine: { feedHealthHoldSec: holdSec },
      });
      bot = startChatBot(world, driver, {
        name: `fundbot (feed health, ${name})`,
        config,
        entry: compiledEntry(),
      });
      await driver.connected(bot);
      await driver.command('subscribe', [journeyProject], { admin: true }).answer();
      const channel = driver.otherChannel;
      await driver.command('language', ['de'], { admin: true, channel }).answer();
      // Only the wall: a refused key stops every feed, so this channel hears it too.
      await driver.command('subscribe', [journeyProject, 'wall'], { admin: true, channel }).answer();
      await waitUntil(
        'the first poll',
        () =>
          world.sim.requests.some(
            (r) => r.path === `/project/${journeyProject}/fundings` && r.status === 200,
          ),
        { timeoutMs: 15_000 },
      );
    },
    120_000,
  );

  journeyStep(
    'the key revoked: after the hold, one message in each channel saying what stopped, why and who fixes it',
    undefined,
    async () => {
      const revokedAt = Date.now();
      world.sim.revokeKey(world.apiKey);
      await waitUntil(
        'the stop said in both channels',
        () => stopPosts(driver.channel).length > 0 && stopPosts(driver.otherChannel).length > 0,
        { timeoutMs: 60_000 },
      );
      expect(Date.now() - revokedAt).toBeGreaterThanOrEqual(holdSec * 1000);
      // More probes are refused meanwhile: nothing more is said.
      await waitUntil(
        'four refused probes',
        () => world.sim.requests.filter((r) => r.at >= revokedAt && r.status === 401).length >= 4,
        { timeoutMs: 60_000 },
      );
      const [english] = stopPosts(driver.channel);
      expect(stopPosts(driver.channel)).toHaveLength(1);
      expect(english?.text).toContain(`Notices of ${journeyProject} have stopped`);
      expect(english?.text).toContain('refuses the API key');
      expect(english?.text).toContain('To fix:');
      const [german] = stopPosts(driver.otherChannel);
      expect(stopPosts(driver.otherChannel)).toHaveLength(1);
      expect(german?.text).toContain(`Meldungen von ${journeyProject} sind gestoppt`);
      expect(german?.text).toContain('Abhilfe:');
      for (const post of [english, german]) {
        expect(JSON.stringify(post?.raw)).not.toContain(world.apiKey);
      }
    },
    150_000,
  );

  journeyStep(
    'the key restored: one message in each channel that the notices are back, a supporter meanwhile announced',
    undefined,
    async () => {
      world.project.addSupporter({ displayName: 'Patient Backer', amount: 40 });
      world.sim.restoreKey(world.apiKey);
      await waitUntil(
        'the resume said in both channels',
        () => backPosts(driver.channel).length > 0 && backPosts(driver.otherChannel).length > 0,
        { timeoutMs: 90_000 },
      );
      await waitUntil(
        'the supporter of the outage announced',
        () => driver.posts().some((p) => p.text.includes('Patient Backer')),
        { timeoutMs: 60_000 },
      );
      // Two more polls of the supporters: still one of each.
      const settledAt = Date.now();
      const polledSince = () =>
        world.sim.requests.filter(
          (r) => r.at > settledAt && r.path === `/project/${journeyProject}/fundings` && r.status === 200,
        ).length;
      await waitUntil('two more polls', () => polledSince() >= 2, { timeoutMs: 60_000 });
      expect(backPosts(driver.channel)).toHaveLength(1);
      expect(backPosts(driver.otherChannel)).toHaveLength(1);
      expect(stopPosts(driver.channel)).toHaveLength(1);
      expect(backPosts(driver.channel)[0]?.text).toContain('working again since');
      expect(backPosts(driver.otherChannel)[0]?.text).toContain('läuft wieder seit');
      const { code } = await bot.stop('SIGTERM');
      expect(code).toBe(0);
    },
    120_000,
  );
});
