/**
 * The chat journey's opening: fundbot starts from a config file and reaches the platform; an admin subscribes
 * a channel after two refusals (not an admin, a channel the bot cannot post in); "now watching" follows once.
 */
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait-until.js';
import type { ChatDriver } from './chat-driver.js';
import {
  type ChatJourneyOptions,
  type ChatJourneyState,
  digestTimeNotDueSoon,
  euros,
  startFundbot,
} from './chat-journey-state.js';
import { journeyProject, journeyTitle } from './journey-project.js';
import { journeyStep } from './known-defects.js';

export function registerSubscribeSteps<D extends ChatDriver>(
  state: ChatJourneyState<D>,
  options: ChatJourneyOptions<D>,
): void {
  journeyStep(
    'starts from fundbot.config.json and the environment, reaches the platform and polls every feed',
    undefined,
    async () => {
      const bot = await startFundbot(state, {
        entry: options.entry(),
        digestTime: digestTimeNotDueSoon(state),
        name: `${options.name} (first start)`,
      });
      // The first polls of every feed: the campaign as it stands becomes the baseline.
      const polled = (feed: string) =>
        state.world.sim.requests.some(
          (r) => r.path === `/project/${journeyProject}${feed}` && r.status === 200,
        );
      await waitUntil(
        'the first poll of every feed',
        () => ['', '/fundings', '/wall', '/blog', '/incentives'].every(polled),
        { timeoutMs: 15_000 },
      );
      expect(bot.exitCode()).toBeUndefined();
    },
    60_000,
  );

  journeyStep('/subscribe by a member without admin rights is refused privately', undefined, async () => {
    const answer = await state.driver.command('subscribe', [journeyProject]).answer();
    expect(answer.visibility).toBe('private');
    expect(answer.text).toMatch(/Manage Server|workspace admins/);
  });

  journeyStep(
    '/subscribe where the bot cannot post stores nothing and says privately how to fix it',
    undefined,
    async () => {
      const { driver } = state;
      const answer = await driver
        .command('subscribe', [journeyProject], { admin: true, channel: driver.lockedChannel })
        .answer();
      expect(answer.visibility).toBe('private');
      expect(answer.text).toMatch(
        driver.platform === 'slack' ? /\/invite @fundbot/ : /View Channel|Send Messages/,
      );
      const listed = await driver.command('subscriptions', [], { channel: driver.lockedChannel }).answer();
      expect(listed.text).toContain('This channel has no subscriptions');
    },
  );

  journeyStep('/subscribe solar-kiosk supporters milestones: a private confirmation', undefined, async () => {
    const run = state.driver.command('subscribe', [journeyProject, 'supporters', 'milestones'], {
      admin: true,
    });
    state.found.firstSubscribe = run;
    const confirmation = await run.answer();
    expect(confirmation.visibility).toBe('private');
    expect(confirmation.text).toContain(`supporters and milestones notices of ${journeyTitle}`);
    expect(await run.acknowledgedWithinMs()).toBeLessThan(3_000);
  });

  journeyStep(
    'the first subscription is followed by a public "now watching" with funding, goal, progress and supporters',
    undefined,
    async () => {
      // It follows the confirmation at once: a few seconds are plenty.
      const watching = await state.found.firstSubscribe!.message(1, 5_000);
      expect(watching.visibility).toBe('public');
      expect(watching.text).toContain(`👀 fundbot is now watching ${journeyTitle}`);
      expect(watching.text).toContain(`${euros(3_750)} of ${euros(10_000)}`);
      expect(watching.text).toMatch(/\b37%/);
      expect(watching.text).toMatch(/Supporters\W+15\b/);
    },
  );

  journeyStep(
    '/subscribe solar-kiosk (all kinds) adds the other kinds without a second "now watching"',
    undefined,
    async () => {
      const { driver } = state;
      const run = driver.command('subscribe', [journeyProject], { admin: true });
      const confirmation = await run.answer();
      expect(confirmation.visibility).toBe('private');
      // A later command's answer has arrived: a follow-up of the subscribe would have come before it.
      const listed = await driver.command('subscriptions').answer();
      expect(listed.visibility).toBe('public');
      expect(run.messages().filter((m) => m.text.includes('now watching'))).toEqual([]);
      // Each kind with its pacing: supporters default to auto, the others to live.
      expect(listed.text).toContain('supporters (auto)');
      expect(listed.text).toContain('wall (live)');
      expect(listed.text).toContain('digest');
      expect(listed.text).toContain('Quiet hours: off');
    },
  );
}
