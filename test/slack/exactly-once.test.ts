/**
 * Issue 13's "done when" on Slack: the REAL Web API client (through the Slack
 * adapter's poster) and the REAL notice router against the fake Slack, with the
 * post landing and then its answer lost in every way the platform loses it: a
 * hang until the client times out, a dropped connection, the server killed
 * mid-request. After recovery every event is in the channel exactly once, also
 * across a restart on a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../src/adapters/slack/index.js';
import { type ChannelRef, createSubscriptionStore } from '../../src/core/index.js';
import {
  createNoticeRouter,
  DeliveryNotPostedError,
  NoticeDeliveryError,
  type NoticeRouter,
} from '../../src/delivery/index.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingCore, recordingLogger } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };
const postTimeoutMs = 400;
/** The poster's settle time: the timeout plus Slack's processing margin. */
const settleMs = postTimeoutMs + 5_000;
const historyIntervalMs = 60_000;

describe('Slack: exactly one message per event when the answer to a post is lost', () => {
  let dir: string;
  let clock: ManualClock;
  let fake: FakeSlack;
  let store: KeyValueStore;
  let bot: { router: NoticeRouter; stop(): Promise<void> };
  const resolved: string[] = [];

  /** One "process": a store opened from the SQLite file, the Slack adapter's poster, the router. */
  async function startBot(): Promise<void> {
    store = await openStore(`sqlite://${join(dir, 'state.sqlite')}`);
    const adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      apiUrl: fake.apiUrl,
      clock,
      postTimeoutMs,
      historyIntervalMs,
      logger: recordingLogger(),
    });
    const router = createNoticeRouter({
      core: {
        renderNotice: (event) => ({ title: 'New supporter', text: event.id }),
        localeFor: async () => 'en',
        timeZoneFor: async () => 'UTC',
      },
      subscriptions: createSubscriptionStore(store, { clock }),
      posters: [adapter.poster],
      store,
      clock,
      onDoubtResolved: (event, _channel, outcome) => resolved.push(`${event.id}:${outcome}`),
    });
    bot = {
      router,
      async stop() {
        await adapter.stop();
        await store.close();
      },
    };
  }

  /** A crash and a restart: nothing in memory survives, the SQLite file does. */
  async function restartBot(): Promise<void> {
    await bot.stop();
    await startBot();
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fundbot-slack-once-'));
    clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
    resolved.length = 0;
    fake = await startFakeSlack({ botToken, now: () => clock.now(), historyIntervalMs });
    await startBot();
    await createSubscriptionStore(store, { clock }).subscribe(
      channel,
      'solar-kiosk',
      ['supporters'],
      'U0ADMIN',
    );
  });

  afterEach(async () => {
    await bot.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inChannel = () => fake.messages.get('C0CHAN') ?? [];

  it.each([
    ['posts, then hangs until the client times out', { afterPost: 'hang' }],
    ['posts, then drops the connection', { afterPost: 'drop' }],
  ] as const)('%s: found by one look, never posted again', async (_, failure) => {
    fake.fail('chat.postMessage', failure, 1);
    const event = buildEvent.supporter();
    await expect(bot.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(inChannel()).toHaveLength(1);

    // While the post might still land, the retry neither looks nor posts.
    await expect(bot.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(fake.callsTo('conversations.history')).toHaveLength(0);

    clock.advance(settleMs);
    await bot.router.deliver(event);
    await bot.router.deliver(event);
    expect(inChannel()).toHaveLength(1);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    expect(fake.callsTo('conversations.history')[0]?.args).toMatchObject({
      channel: 'C0CHAN',
      include_all_metadata: 'true',
      limit: '15',
    });
    expect(resolved).toEqual([`${event.id}:found`]);
  });

  it('a slow answer within the post timeout is a plain success: no doubt, no look', async () => {
    fake.fail('chat.postMessage', { afterPost: 'slow', delayMs: postTimeoutMs / 2 }, 1);
    await bot.router.deliver(buildEvent.supporter());
    expect(inChannel()).toHaveLength(1);
    expect(resolved).toEqual([]);
  });

  it('the fake is killed mid-request, the bot restarts on the same SQLite file: one message', async () => {
    fake.fail('chat.postMessage', { afterPost: 'kill' }, 1);
    const event = buildEvent.supporter();
    await expect(bot.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    await fake.restart();
    await restartBot();
    clock.advance(settleMs);
    await bot.router.deliver(event);
    expect(inChannel()).toHaveLength(1);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);
  });

  it('a post that never landed is posted after the look shows it absent, once, across a restart', async () => {
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    const event = buildEvent.supporter();
    await expect(bot.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(inChannel()).toHaveLength(0);
    await restartBot();
    clock.advance(settleMs);
    await bot.router.deliver(event);
    await bot.router.deliver(event);
    expect(inChannel()).toHaveLength(1);
    expect(resolved).toEqual([`${event.id}:absent`]);
  });

  it('ONE look resolves every event in doubt in the channel; later ones wait for the next allowed look', async () => {
    const events = [1, 2, 3].map((n) =>
      buildEvent.supporter({ id: `fundings:${n}`, project: 'solar-kiosk' }),
    );
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 3);
    for (const event of events) {
      await expect(bot.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    }
    // Other people talk in the channel meanwhile: only the bot's own messages count.
    fake.addMessage({
      channel: 'C0CHAN',
      user: 'U0HUMAN',
      text: 'spoofed',
      metadata: {
        event_type: 'fundbot_notice',
        event_payload: { event_id: 'fundings:9@slack:T0FAKE:C0CHAN' },
      },
    });
    clock.advance(settleMs);
    for (const event of events) await bot.router.deliver(event);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);

    // A fourth doubt right after: it waits for the next look instead of posting.
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const late = buildEvent.supporter({ id: 'fundings:4' });
    await expect(bot.router.deliver(late)).rejects.toBeInstanceOf(NoticeDeliveryError);
    clock.advance(settleMs);
    await expect(bot.router.deliver(late)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    clock.advance(historyIntervalMs);
    await bot.router.deliver(late);
    expect(fake.callsTo('conversations.history')).toHaveLength(2);
    expect(fake.callsTo('conversations.history').every((c) => c.outcome === 'ok')).toBe(true);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(4);
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);

    // A spoofed "notice" from someone else does not count as posted.
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 0);
    const spoofed = buildEvent.supporter({ id: 'fundings:9' });
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    await expect(bot.router.deliver(spoofed)).rejects.toBeInstanceOf(NoticeDeliveryError);
    clock.advance(settleMs + historyIntervalMs);
    await bot.router.deliver(spoofed);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(5);
  });
});

describe("Slack: the platform's rate-limit wait is obeyed", () => {
  it('after a 429 asking for 10 s, nothing is sent to Slack before the 10 s are over', async () => {
    const clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
    const fake = await startFakeSlack({ botToken, now: () => clock.now() });
    const adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      apiUrl: fake.apiUrl,
      clock,
      logger: recordingLogger(),
    });
    try {
      fake.fail('chat.postMessage', { status: 429, retryAfterSeconds: 10 }, 1);
      const first = await adapter.poster.post(channel, { text: 'a' }, 'evt:a').catch((e: unknown) => e);
      expect(first).toMatchObject({ retryAfterMs: 10_000 });
      clock.advance(4_100);
      const early = await adapter.poster.post(channel, { text: 'a' }, 'evt:a').catch((e: unknown) => e);
      expect(early).toBeInstanceOf(DeliveryNotPostedError);
      expect((early as DeliveryNotPostedError).retryAfterMs).toBe(5_900);
      // Looks at the history are held back too.
      await expect(
        adapter.poster.findPosted?.(channel, 'evt:a', clock.now() - 60_000, { text: 'a' }),
      ).rejects.toBeInstanceOf(DeliveryNotPostedError);
      expect(fake.calls.map((c) => c.method)).toEqual(['chat.postMessage']);
      clock.advance(5_900);
      await adapter.poster.post(channel, { text: 'a' }, 'evt:a');
      expect(fake.callsTo('chat.postMessage').map((c) => c.outcome)).toEqual(['http 429', 'ok']);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
