/**
 * The adapter with the REAL command core (src/core): the admin gate, the channel
 * reference and the parsed options must reach the core in the shape it relies on.
 * Only the engine's read model is faked (the subscription commands barely read it).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import { createCommandCore } from '../../src/core/index.js';
import type { ChannelRef, ProjectReadModel, SubscriptionStore } from '../../src/core/ports.js';
import { createSettingsStore } from '../../src/core/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { ManualClock } from '../support/manual-clock.js';
import { postSignedCommand, recordingLogger, slashCommand } from './helpers.js';

const signingSecret = 'real-core-signing-secret';
const botToken = 'xoxb-1-real-core';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };

/** Only the watched projects are known; any read beyond that fails the test loudly. */
function watchedOnlyReadModel(): ProjectReadModel {
  const notUsed = () => Promise.reject(new Error('read model not used by this test'));
  return {
    watchedProjects: () => [{ linkCaption: 'solar-kiosk', title: 'Solar kiosk <!channel>' }],
    project: notUsed,
    rewards: notUsed,
    reward: notUsed,
    recentSupporters: notUsed,
    recentBlogPosts: notUsed,
    recentWallPosts: notUsed,
    history: notUsed,
    status: notUsed,
  };
}

describe('Slack adapter with the real command core', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let subscriptions: SubscriptionStore;
  let url: string;

  beforeEach(async () => {
    fake = await startFakeSlack({
      botToken,
      users: [
        { id: 'U0PLAIN', team_id: 'T0FAKE', name: 'plain' },
        { id: 'U0ADMIN', team_id: 'T0FAKE', name: 'admin', is_admin: true },
      ],
    });
    const clock = new ManualClock();
    subscriptions = createSubscriptionStore(memoryStore(), { clock });
    const core = createCommandCore({
      readModel: watchedOnlyReadModel(),
      subscriptions,
      settings: createSettingsStore(memoryStore()),
      clock,
      version: 'test',
    });
    adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret,
      port: 0,
      host: '127.0.0.1',
      core,
      slackApiUrl: fake.apiUrl,
      retryPolicy: { retries: 0 },
      logger: recordingLogger(),
      clock,
    });
    await adapter.start();
    url = adapter.url ?? '';
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  async function run(command: string, text: string, userId: string) {
    const before = fake.responses.length;
    const res = await postSignedCommand(
      url,
      signingSecret,
      slashCommand({ response_url: fake.responseUrl(), command, text, user_id: userId }),
    );
    expect(res.status).toBe(200);
    return fake.waitFor(() => fake.responses[before], `the answer to ${command}`);
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
});
