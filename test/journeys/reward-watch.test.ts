/**
 * Journey (issue 32, item 3): reward watch on the compiled entry (`node dist/src/main.js`, as the image runs it) with
 * Slack over HTTP, driven only from outside: the simulator's controls (supports that take a limited reward, a support
 * that fails and gives it back), signed slash commands, the Slack fake's channel. A channel with `/fundbot lowstock 2`
 * is told "last 2 left" once, then "sold out", then "back in stock" once when a support fails; a reward title with
 * @everyone and <!channel> stays inert in each of them.
 */
import { beforeAll, describe, expect } from 'vitest';
import type { FundingKey } from '../../src/simulator/types.js';
import { waitUntil } from '../support/wait-until.js';
import { type BotProcess, startBotProcess } from './harness/bot-process.js';
import { expectInert } from './harness/chat-journey-notices.js';
import { postsWith, waitForPost } from './harness/chat-journey-state.js';
import { compiledEntryForFile } from './harness/compiled-entry.js';
import { journeyHooks } from './harness/journey-hooks.js';
import { type JourneyWorld, startJourneyWorld } from './harness/journey-world.js';
import { journeyStep } from './harness/known-defects.js';
import { type SlackDriver, startSlackDriver } from './harness/slack-driver.js';

/** The compiled entry point (as the image runs it), built once per test run. */
const compiledEntry = compiledEntryForFile();

const shop = 'kiosk-shop';
const kit = { id: 301, title: 'Kiosk kit @everyone <!channel>', price: 80, quantityTotal: 4 } as const;

let world: JourneyWorld;
let driver: SlackDriver;
let bot: BotProcess;
const buyers: FundingKey[] = [];

beforeAll(async () => {
  world = await startJourneyWorld('reward-watch');
  world.sim.createProject({
    linkCaption: shop,
    title: 'Kiosk Shop',
    status: 'active',
    currency: 'EUR',
    fundingThreshold: 5_000,
    plan: 'pro',
    rewards: [kit],
  });
  driver = await startSlackDriver('http');
});
journeyHooks(() => ({ bot, driver, world }));

const buy = (count: number) => {
  for (let i = 0; i < count; i += 1) {
    buyers.push(world.sim.project(shop).addSupporter({ rewardIds: [kit.id], amount: kit.price }));
  }
};

describe('journey: reward watch (back in stock, low stock) on Slack', () => {
  journeyStep(
    'an admin subscribes a channel to reward notices and sets its low-stock threshold to 2',
    undefined,
    async () => {
      const config = world.writeConfig({
        api: { baseUrl: world.sim.url },
        store: { url: world.storeUrl },
        projects: [{ linkCaption: shop, apiKeyEnv: 'KIOSK_SHOP_API_KEY' }],
        ...(await driver.configSection()),
        digest: { enabled: false },
      });
      bot = startBotProcess({
        name: 'fundbot (reward watch)',
        entry: compiledEntry(),
        cwd: world.dir,
        env: { FUNDBOT_CONFIG: config, KIOSK_SHOP_API_KEY: world.sim.issueProjectKey(shop), ...driver.env() },
      });
      await driver.connected(bot);
      const subscribed = await driver.command('subscribe', [shop, 'rewards'], { admin: true }).answer();
      expect(subscribed.text).toContain('This channel now gets');
      const refused = await driver.command('lowstock', ['2']).answer();
      expect(refused.text).not.toContain('Low-stock notices on');
      const set = await driver.command('lowstock', ['2'], { admin: true }).answer();
      expect(set.text).toContain('Low-stock notices on');
      expect(set.text).toContain('/fundbot subscribe <project> rewards');
      const subscriptions = await driver.command('subscriptions').answer();
      expect(subscriptions.text).toContain('Low-stock notices: at 2 left');
    },
    60_000,
  );

  journeyStep(
    'two of four sold: "last 2 left" once, the title inert',
    undefined,
    async () => {
      buy(2);
      const notice = await waitForPost(driver, 'Last 2 left', 'the low-stock notice', 30_000);
      expect(notice.text).toContain(`⏳ Last 2 left: ${kit.title}`);
      expectInert(driver, notice.raw);
    },
    40_000,
  );

  journeyStep(
    'the last two sold: "sold out", no second low-stock notice',
    undefined,
    async () => {
      buy(2);
      await waitForPost(driver, `Sold out: ${kit.title}`, 'the sold-out notice', 30_000);
      expect(postsWith(driver, 'left:')).toHaveLength(1);
    },
    40_000,
  );

  journeyStep(
    'a support fails and gives one back: one "back in stock" notice',
    undefined,
    async () => {
      const cancelled = buyers[0];
      if (!cancelled) throw new Error('no buyer to cancel');
      world.sim.project(shop).failSupport(cancelled);
      const notice = await waitForPost(driver, 'Back in stock', 'the back-in-stock notice', 30_000);
      expect(notice.text).toContain(`🔁 Back in stock: ${kit.title}`);
      expect(notice.text).toContain('1 left');
      expectInert(driver, notice.raw);
      // Several more polls later: still one of each, and 0 → 1 left is no low-stock drop.
      const polled = world.sim.requests.length;
      await waitUntil(
        'more polls of the rewards',
        () => world.sim.requests.slice(polled).filter((r) => r.path.endsWith('/incentives')).length >= 3,
      );
      expect(postsWith(driver, 'Back in stock')).toHaveLength(1);
      expect(postsWith(driver, 'Sold out')).toHaveLength(1);
      expect(postsWith(driver, 'left:')).toHaveLength(1);
      const { code } = await bot.stop('SIGTERM');
      expect(code).toBe(0);
    },
    60_000,
  );
});
