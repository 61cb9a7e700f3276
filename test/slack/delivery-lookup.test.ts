/**
 * The Slack look that resolves deliveries in doubt, at its edges: a channel busier
 * than one conversations.history page (15 messages for non-Marketplace apps) is read
 * on by cursor at the next allowed call, never guessed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSlackAdapter,
  type SlackAdapter,
  SlackLookupPendingError,
} from '../../src/adapters/slack/index.js';
import type { ChannelRef } from '../../src/core/index.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingCore, recordingLogger } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0BUSY' };
const bot = { user: 'U0BOT', bot_id: 'B0BOT' } as const;
const notice = (key: string) => ({ event_type: 'fundbot_notice', event_payload: { event_id: key } });

describe('Slack delivery lookup', () => {
  let clock: ManualClock;
  let fake: FakeSlack;
  let adapter: SlackAdapter;

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
    fake = await startFakeSlack({ botToken, now: () => clock.now(), historyIntervalMs: 60_000 });
    adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      apiUrl: fake.apiUrl,
      clock,
      postTimeoutMs: 1_000,
      logger: recordingLogger(),
    });
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  it('reads a busy channel page by page, one call a minute, and finds the notice on the second page', async () => {
    const attemptStartedAt = clock.now();
    clock.advance(500);
    const target = fake.addMessage({ channel: 'C0BUSY', ...bot, text: 'n', metadata: notice('evt:target') });
    for (let i = 0; i < 20; i += 1) {
      clock.advance(100);
      fake.addMessage({ channel: 'C0BUSY', ...bot, text: `n${i}`, metadata: notice(`evt:other-${i}`) });
    }
    clock.advance(10_000);
    const find = () => adapter.poster.findPosted?.(channel, 'evt:target', attemptStartedAt, { text: 'n' });

    await expect(find()).rejects.toBeInstanceOf(SlackLookupPendingError);
    await expect(find()).rejects.toBeInstanceOf(SlackLookupPendingError);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    clock.advance(60_000);
    await expect(find()).resolves.toEqual({ messageId: target.ts });
    const calls = fake.callsTo('conversations.history');
    expect(calls.map((c) => c.outcome)).toEqual(['ok', 'ok']);
    expect(calls[1]?.args['cursor']).toBe('15');
    // Same span as the first page: the cursor continues that sweep.
    expect(calls[1]?.args['oldest']).toBe(calls[0]?.args['oldest']);
  });

  it('an attempt that has not settled yet is not cleared by an earlier look: it waits for the next one', async () => {
    const earlier = clock.now();
    clock.advance(30_000);
    const later = clock.now();
    clock.advance(7_000);
    // The earlier attempt has settled (1 s timeout + 5 s margin), the later one not quite... then both have.
    await expect(
      adapter.poster.findPosted?.(channel, 'evt:a', earlier, { text: 'a' }),
    ).resolves.toBeUndefined();
    await expect(
      adapter.poster.findPosted?.(channel, 'evt:b', later + 2_000, { text: 'b' }),
    ).rejects.toBeInstanceOf(SlackLookupPendingError);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
  });
});
