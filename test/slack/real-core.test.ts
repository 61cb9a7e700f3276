/**
 * The adapter with the REAL command core (src/core): the admin gate, the channel
 * reference and the parsed options must reach the core in the shape it relies on.
 * Only the engine's read model is faked; the channel access is the adapter's own
 * (conversations.info against the fake Slack).
 */
import { describe, expect, it } from 'vitest';
import { createCommandCore } from '../../src/core/index.js';
import type { ChannelRef, SubscriptionStore } from '../../src/core/ports.js';
import { createSettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { buildProject } from '../support/builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { coreAdapterPerTest } from './core-adapter.js';
import { recordingLogger } from './helpers.js';

const signingSecret = 'real-core-signing-secret';
const botToken = 'xoxb-1-real-core';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };

describe('Slack adapter with the real command core', () => {
  let subscriptions: SubscriptionStore;
  let logger: ReturnType<typeof recordingLogger>;
  const h = coreAdapterPerTest({
    botToken,
    signingSecret,
    logger: () => {
      logger = recordingLogger();
      return logger;
    },
    core: ({ clock, adapter }) => {
      subscriptions = createSubscriptionStore(memoryStore(), { clock });
      const readModel = new FakeReadModel({
        clock,
        projects: [
          { project: buildProject({ title: 'Solar kiosk <!channel>', link_caption: 'solar-kiosk' }) },
        ],
      });
      return createCommandCore({
        readModel,
        // The adapter is created after the core (it needs it): its channel access is looked up per call.
        channelAccess: { canPost: (c) => adapter().channelAccess.canPost(c) },
        subscriptions,
        settings: createSettingsStore(memoryStore()),
        clock,
        version: 'test',
      });
    },
  });

  async function run(command: string, text: string, userId: string) {
    return (await h.runAll(command, text, userId, 1))[0]!;
  }

  it('refuses /subscribe to a non-admin privately and subscribes nothing', async () => {
    const response = await run('/fundbot', 'subscribe solar-kiosk', 'U0PLAIN');
    expect(response.body.response_type).toBe('ephemeral');
    expect(await subscriptions.forChannel(channel)).toEqual([]);
  });

  it('lets a workspace admin subscribe this channel to the kinds given as free text', async () => {
    await run('/fundbot', 'subscribe solar-kiosk wall blog', 'U0ADMIN');
    const [subscription] = await subscriptions.forChannel(channel);
    expect(subscription).toMatchObject({ project: 'solar-kiosk', channel, createdBy: 'U0ADMIN' });
    expect([...(subscription?.kinds ?? [])].sort()).toEqual(['blog', 'wall']);

    const listed = await run('/fundbot', 'subscriptions', 'U0PLAIN');
    expect(JSON.stringify(listed.body.blocks)).toContain('Solar kiosk');
    // The hostile project title: literal in plain_text (never parsed), escaped in the mrkdwn fallback.
    expect(String(listed.body.text)).toContain('&lt;!channel&gt;');
    expect(String(listed.body.text)).not.toContain('<!channel>');
  });

  it('answers /fundbot and /fundbot help privately with every subcommand as typed on Slack', async () => {
    for (const text of ['', 'help']) {
      const response = await run('/fundbot', text, 'U0PLAIN');
      expect(response.body.response_type).toBe('ephemeral');
      const shown = JSON.stringify(response.body.blocks);
      expect(shown).toContain('/fundbot funding [project]');
      expect(shown).toContain('/fundbot subscribe <project> [kinds…]');
      expect(shown).not.toMatch(/"\/funding/);
    }
  });

  it('answers a signed /fundbot funding in the channel with the project’s figures', async () => {
    const response = await run('/fundbot', 'funding', 'U0PLAIN');
    expect(response.body.response_type).toBe('in_channel');
    expect(JSON.stringify(response.body.blocks)).toMatch(/12,345/);
  });

  it('subscribes only after conversations.info says the bot is a member, then posts "now watching" once', async () => {
    const [confirmation, watching] = await h.runAll(
      '/fundbot',
      'subscribe solar-kiosk supporters',
      'U0ADMIN',
      2,
    );
    expect(h.fake.callsTo('conversations.info').map((c) => c.args.channel)).toEqual(['C0CHAN']);
    expect(confirmation?.body.response_type).toBe('ephemeral');
    expect(watching?.body.response_type).toBe('in_channel');
    const shown = JSON.stringify(watching?.body.blocks);
    expect(shown).toContain('fundbot is now watching Solar kiosk');
    expect(shown).toContain('€12,345 of €20,000');
    expect(String(watching?.body.text)).toContain('&lt;!channel&gt;');

    // More kinds later: confirmed, no second summary.
    const before = h.fake.responses.length;
    await run('/fundbot', 'subscribe solar-kiosk wall', 'U0ADMIN');
    await run('/fundbot', 'subscriptions', 'U0PLAIN');
    expect(h.fake.responses.slice(before).map((r) => r.body.response_type)).toEqual([
      'ephemeral',
      'in_channel',
    ]);
    expect(JSON.stringify(h.fake.responses.slice(before))).not.toContain('now watching');
    expect((await subscriptions.forChannel(channel))[0]?.kinds).toEqual(['supporters', 'wall']);
  });

  it.each([
    ['not a member', { id: 'C0CHAN', isMember: false }, '/invite @fundbot'],
    [
      'a private channel it is not in',
      { id: 'C0CHAN', isPrivate: true, isMember: false },
      '/invite @fundbot',
    ],
    ['archived', { id: 'C0CHAN', isArchived: true }, 'archived'],
  ])(
    'refuses /fundbot subscribe when the bot is %s, says how to fix it, stores nothing',
    async (_l, state, fix) => {
      h.fake.setChannel(state);
      const response = await run('/fundbot', 'subscribe solar-kiosk', 'U0ADMIN');
      expect(response.body.response_type).toBe('ephemeral');
      expect(JSON.stringify(response.body.blocks)).toContain(fix);
      expect(await subscriptions.forChannel(channel)).toEqual([]);
      // Nothing public followed.
      await run('/fundbot', 'help', 'U0PLAIN');
      expect(h.fake.responses.filter((r) => r.body.response_type === 'in_channel')).toEqual([]);
    },
  );

  it('refuses when Slack cannot be asked (missing scope), and logs what to fix', async () => {
    h.fake.fail('conversations.info', { error: 'missing_scope' });
    const response = await run('/fundbot', 'subscribe solar-kiosk', 'U0ADMIN');
    expect(JSON.stringify(response.body.blocks)).toContain('could not check');
    expect(await subscriptions.forChannel(channel)).toEqual([]);
    expect(logger.records.some((r) => JSON.stringify(r.fields).includes('channels:read'))).toBe(true);
  });
});
