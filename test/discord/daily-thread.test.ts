/**
 * The daily thread on Discord, through the real discord.js client against the fake:
 * the parent in the channel, a thread started on it (POST .../messages/{id}/threads),
 * every supporter a message in the thread; the parent PATCHed with the running
 * figures; hostile names inert (mentions off, escaped) in replies, parent and
 * corrections; a reply whose answer was lost found in the thread after a restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../src/adapters/discord/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDailyThreadSettings } from '../../src/core/settings/daily-thread-settings.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createNoticeRouter, createPacedRouter, NoticeDeliveryError } from '../../src/delivery/index.js';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { defaultGuild, type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { type CoreFixture, createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { hostileTexts } from '../support/hostile-text.js';
import { recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

const channel: ChannelRef = {
  platform: 'discord',
  workspaceId: defaultGuild.id,
  channelId: defaultGuild.channels[0]!.id,
};
const restTimeoutMs = 300;
const settleMs = restTimeoutMs + 5_000;
const nonceWindowMs = 120_000;

interface SentBody {
  embeds: { title?: string; description?: string }[];
  allowed_mentions: unknown;
}

describe('Discord daily thread', () => {
  let fake: FakeDiscord;
  let f: CoreFixture;
  let adapter: DiscordAdapter;

  async function startBot() {
    adapter = createDiscordAdapter({
      token: fake.token,
      core: new RecordingCore(),
      logger: recordingLogger(),
      apiUrl: fake.apiUrl,
      restRetries: 0,
      restTimeoutMs,
      nonceWindowMs,
      clock: f.clock,
      drainTimeoutMs: 100,
    });
    await adapter.start();
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
    fake = await startFakeDiscord();
    await f.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters'], 'U');
    await createPacingSettings(f.store).setKind(channel, 'supporters', { mode: 'live' });
    await createDailyThreadSettings(f.store).set(channel, true);
  });
  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  const inChannel = () => fake.channelMessages.get(channel.channelId) ?? [];
  const threadId = () => String(inChannel()[0]?.['id']);
  const inThread = () => fake.channelMessages.get(threadId()) ?? [];
  const supporter = (id: string, displayName: string, n: number) =>
    buildEvent.supporter({
      id,
      displayName,
      supporterCount: 300 + n,
      fundingTotal: 7_000 + n * 25,
      detectedAt: f.clock.now(),
    });
  const expectInert = (body: SentBody) => {
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const text = JSON.stringify(body.embeds);
    expect(text).not.toContain('@everyone');
    expect(text).not.toContain('](https://evil.example)');
  };

  it('the parent in the channel, a thread on it, replies in the thread, the parent and a reply edited after a restart: all inert', async () => {
    let paced = await startBot();
    await paced.deliver(supporter('k1', hostileTexts.everyone, 1));
    await paced.deliver(supporter('k2', hostileTexts.markdownLink, 2));
    expect(inChannel()).toHaveLength(1);
    const starts = fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/threads'));
    expect(starts).toHaveLength(1);
    expect(starts[0]?.path).toBe(`/channels/${channel.channelId}/messages/${threadId()}/threads`);
    expect((starts[0]!.body as { name: string }).name).toBe('Supporters 2026-01-01 · solar-kiosk');
    expect(inThread()).toHaveLength(2);
    const replyPosts = fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${threadId()}/messages`,
    );
    expect(replyPosts).toHaveLength(2);
    for (const post of replyPosts) expectInert(post.body as SentBody);

    await adapter.stop();
    paced = await startBot(); // the parent's and the thread's ids come from the store
    f.clock.advance(60_000);
    await paced.flushDue();
    const parentPatches = fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path === `/channels/${channel.channelId}/messages/${threadId()}`,
    );
    expect(parentPatches).toHaveLength(1);
    const parentBody = parentPatches[0]?.body as SentBody;
    expectInert(parentBody);
    expect(parentBody.embeds[0]?.description).toContain('2 new supporters today · supporter count 302');
    expect(parentBody.embeds[0]?.description).toContain('▰');

    // A support in the thread drops out: its reply is edited where it lives, in the thread.
    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'solar-kiosk:support-dropped:k1',
      project: 'solar-kiosk',
      occurredAt: 0,
      detectedAt: 0,
      originalEventId: 'k1',
      entryKey: 'k1',
      displayName: hostileTexts.everyone,
    };
    await paced.deliver(drop);
    const replyPatches = fake.requests.filter(
      (r) =>
        r.method === 'PATCH' &&
        r.path === `/channels/${threadId()}/messages/${String(inThread()[0]?.['id'])}`,
    );
    expect(replyPatches).toHaveLength(1);
    expectInert(replyPatches[0]?.body as SentBody);
    expect(inChannel()).toHaveLength(1);
  });

  it('a reply lost in a crash is found in the thread after a restart past the nonce window: posted once', async () => {
    let paced = await startBot();
    await paced.deliver(supporter('k1', 'Ada', 1));
    fake.faultMessages({ afterCreate: 'drop' });
    const lost = supporter('k2', 'Bob', 2);
    await expect(paced.deliver(lost)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(inThread()).toHaveLength(2);
    await adapter.stop();
    paced = await startBot();
    fake.setNonceWindowMs(0); // past the window Discord would create a second message
    f.clock.advance(nonceWindowMs + settleMs);
    await paced.deliver(lost);
    await paced.deliver(lost);
    expect(inThread()).toHaveLength(2);
    expect(inChannel()).toHaveLength(1);
    const looks = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/messages'));
    expect(looks.map((r) => r.path)).toEqual([`/channels/${threadId()}/messages`]);
  });

  it('starting the thread again (a restart before its id was stored) returns the same thread', async () => {
    await startBot();
    const parent = await adapter.poster.post(channel, { title: 'parent' }, 'p1');
    const id = (parent as { messageId: string }).messageId;
    const first = await adapter.poster.startThread?.(channel, id, 'Supporters');
    const again = await adapter.poster.startThread?.(channel, id, 'Supporters');
    expect(first).toEqual({ parentMessageId: id, threadId: id });
    expect(again).toEqual(first);
  });
});
