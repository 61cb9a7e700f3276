/**
 * The daily thread on Slack, through the real Web API client against the fake:
 * one parent a day in the channel, every supporter a reply (`thread_ts`), the
 * parent edited with chat.update; hostile names inert in replies and parent; a
 * reply whose answer was lost is found by conversations.replies after a restart,
 * never posted twice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDailyThreadSettings } from '../../src/core/settings/daily-thread-settings.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createNoticeRouter, createPacedRouter, NoticeDeliveryError } from '../../src/delivery/index.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { type CoreFixture, createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { hostileTexts } from '../support/hostile-text.js';
import { recordingCore, recordingLogger } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };
const postTimeoutMs = 400;
const settleMs = postTimeoutMs + 5_000;
const historyIntervalMs = 60_000;

/**
 * What Slack would parse in a message: its `mrkdwn` texts and the fallback `text`
 * (`plain_text` is never parsed for mentions or links, so it may hold anything).
 */
function parsedParts(args: Record<string, unknown>): string {
  const parts: string[] = [String(args['text'] ?? '')];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o['type'] === 'mrkdwn' && typeof o['text'] === 'string') parts.push(o['text']);
    for (const value of Object.values(o)) walk(value);
  };
  walk(args['blocks']);
  return parts.join('\n');
}

describe('Slack daily thread', () => {
  let fake: FakeSlack;
  let f: CoreFixture;
  let adapter: SlackAdapter;

  /** One "process": a new adapter and routers over the same store. */
  function startBot() {
    adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      apiUrl: fake.apiUrl,
      clock: f.clock,
      postTimeoutMs,
      historyIntervalMs,
      retryPolicy: { retries: 0, minTimeout: 0, maxTimeout: 1 },
      logger: recordingLogger(),
    });
    const deps = { core: f.core, subscriptions: f.subscriptions, posters: [adapter.poster], store: f.store };
    return createPacedRouter({
      ...deps,
      router: createNoticeRouter({ ...deps, clock: f.clock }),
      clock: f.clock,
      dailyThread: { goalOf: async () => 20_000 },
    });
  }

  beforeEach(async () => {
    f = createCoreFixture();
    fake = await startFakeSlack({ botToken, now: () => f.clock.now(), historyIntervalMs });
    await f.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters'], 'U0ADMIN');
    await createPacingSettings(f.store).setKind(channel, 'supporters', { mode: 'live' });
    await createDailyThreadSettings(f.store).set(channel, true);
  });
  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  const all = () => fake.messages.get(channel.channelId) ?? [];
  const inChannel = () => all().filter((m) => m.thread_ts === undefined);
  const replies = () => all().filter((m) => m.thread_ts !== undefined);
  const supporter = (id: string, displayName: string, n: number) =>
    buildEvent.supporter({
      id,
      displayName,
      supporterCount: 200 + n,
      fundingTotal: 9_000 + n * 50,
      detectedAt: f.clock.now(),
    });

  it('one line in the channel, replies in the thread, hostile names inert in replies and in the edited parent', async () => {
    let paced = startBot();
    await paced.deliver(supporter('k1', hostileTexts.slackChannel, 1));
    await paced.deliver(supporter('k2', hostileTexts.slackLink, 2));
    expect(inChannel()).toHaveLength(1);
    const parentTs = inChannel()[0]!.ts;
    expect(replies().map((m) => m.thread_ts)).toEqual([parentTs, parentTs]);
    const posts = fake.callsTo('chat.postMessage');
    expect(posts[0]?.args['thread_ts']).toBeUndefined();
    expect(posts[0]?.args['text']).toContain('Supporters on');
    for (const reply of posts.slice(1)) {
      const wire = parsedParts(reply.args);
      expect(wire).toMatch(/&lt;!channel&gt;|&lt;https:\/\/evil\.example/);
      expect(wire).not.toContain('<!channel>');
      expect(wire).not.toContain('<https://evil.example');
      expect(reply.args['reply_broadcast']).toBeUndefined();
    }

    await adapter.stop();
    paced = startBot(); // a restart: the parent's ts comes from the store
    f.clock.advance(60_000);
    await paced.flushDue();
    const updates = fake.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args['ts']).toBe(parentTs);
    const edited = parsedParts(updates[0]!.args);
    expect(edited).toContain('2 new supporters today');
    expect(edited).toContain('supporter count 202');
    expect(edited).toContain('&lt;https://evil.example|click me&gt;');
    expect(edited).not.toContain('<https://evil.example');
    expect(edited).not.toContain('<!channel>');
    expect(JSON.stringify(updates[0]?.args['blocks'])).toContain('▰');
    await paced.deliver(supporter('k3', 'Cleo', 3));
    expect(inChannel()).toHaveLength(1);
    expect(replies()).toHaveLength(3);
  });

  it('a reply whose answer was lost is found in the thread by conversations.replies after a restart: posted once', async () => {
    let paced = startBot();
    await paced.deliver(supporter('k1', 'Ada', 1));
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const lost = supporter('k2', 'Bob', 2);
    await expect(paced.deliver(lost)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(replies()).toHaveLength(2);

    await adapter.stop();
    paced = startBot();
    f.clock.advance(settleMs);
    await paced.deliver(lost);
    await paced.deliver(lost);
    expect(replies()).toHaveLength(2);
    expect(fake.duplicateEventIds(channel.channelId)).toEqual([]);
    const looks = fake.callsTo('conversations.replies');
    expect(looks).toHaveLength(1);
    expect(looks[0]?.args).toMatchObject({ channel: 'C0CHAN', ts: inChannel()[0]!.ts });
    expect(fake.callsTo('conversations.history')).toHaveLength(0);
    expect(inChannel()).toHaveLength(1);
  });

  it('a parent whose answer was lost is found in the channel history after a restart: one parent, the replies under it', async () => {
    let paced = startBot();
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const ada = supporter('k1', 'Ada', 1);
    await expect(paced.deliver(ada)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(inChannel()).toHaveLength(1);
    expect(replies()).toHaveLength(0);

    await adapter.stop();
    paced = startBot();
    f.clock.advance(settleMs);
    await paced.deliver(ada);
    await paced.deliver(supporter('k2', 'Bob', 2));
    expect(inChannel()).toHaveLength(1);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    const parentTs = inChannel()[0]!.ts;
    expect(replies().map((m) => m.thread_ts)).toEqual([parentTs, parentTs]);
    expect(fake.duplicateEventIds(channel.channelId)).toEqual([]);
  });
});
