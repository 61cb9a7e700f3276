import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createNoticeRouter, createPacedRouter } from '../../src/delivery/index.js';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { recordingCore, recordingLogger } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };

describe('Slack corrections', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  beforeEach(async () => {
    fake = await startFakeSlack({ botToken });
    adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      slackApiUrl: fake.apiUrl,
      retryPolicy: { retries: 0, minTimeout: 0, maxTimeout: 1 },
      logger: recordingLogger(),
    });
  });
  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  it('a dropped support edits the posted message with chat.update after a restart: struck through, escaped', async () => {
    const f = createCoreFixture();
    await f.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters'], 'U');
    const paced = () =>
      createPacedRouter({
        router: createNoticeRouter({
          core: f.core,
          subscriptions: f.subscriptions,
          posters: [adapter.poster],
          store: f.store,
          clock: f.clock,
        }),
        core: f.core,
        subscriptions: f.subscriptions,
        posters: [adapter.poster],
        store: f.store,
        clock: f.clock,
      });
    const hostile = 'Eve <!channel> <https://evil.example|click> *bold*';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:k1', displayName: hostile });
    await paced().deliver(supporter);
    const ts = fake.messages.get(channel.channelId)?.[0]?.ts;
    expect(ts).toBeTruthy();
    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'solar-kiosk:support-dropped:k1',
      project: 'solar-kiosk',
      occurredAt: 0,
      detectedAt: 0,
      originalEventId: supporter.id,
      entryKey: 'k1',
      displayName: hostile,
    };
    await paced().deliver(drop); // a new process: the message id comes from the stored ledger
    await paced().deliver(drop);
    const updates = fake.calls.filter((c) => c.method === 'chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args['ts']).toBe(ts);
    const blocks = JSON.stringify(updates[0]?.args['blocks']);
    // Struck through as rich text structure; the name stays literal text, no control sequence in it.
    expect(blocks).toContain('"style":{"strike":true}');
    expect(blocks).not.toContain('"type":"mrkdwn"');
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).not.toContain('<https://evil.example');
    expect(fake.calls.filter((c) => c.method === 'chat.postMessage')).toHaveLength(1);
  });
});
