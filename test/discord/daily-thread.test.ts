/**
 * The daily thread on Discord, through the real pipeline and the real discord.js client
 * against the fake: the parent in the channel, a thread started on it (POST
 * .../messages/{id}/threads), every supporter a message in the thread; the parent
 * PATCHed with the running figures; hostile names inert (mentions off, escaped) in
 * replies, parent and corrections; a reply whose answer was lost found in the thread
 * after a restart.
 */
import { describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { goalOf20k, liveIn, restartablePerTest } from '../delivery/restartable-process.js';
import { supportDroppedOf } from '../delivery/support-dropped.js';
import { startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildEvent } from '../support/event-builders.js';
import { hostileTexts } from '../support/hostile-text.js';
import { campaign as channel, nonceWindowMs, settleMs, startDiscordPipeline } from './discord-pipeline.js';

interface SentBody {
  embeds: { title?: string; description?: string }[];
  allowed_mentions: unknown;
}

describe('Discord daily thread', () => {
  /** One "process" at a time over one store: `startBot` is a restart. */
  const day = restartablePerTest({
    startFake: () => startFakeDiscord(),
    startBot: startDiscordPipeline,
    setUp: liveIn(channel, { dailyThread: true }),
    overrides: goalOf20k,
  });
  const startBot = () => day.start();

  const inChannel = () => day.fake.channelMessages.get(channel.channelId) ?? [];
  const threadId = () => String(inChannel()[0]?.['id']);
  const inThread = () => day.fake.channelMessages.get(threadId()) ?? [];
  const supporter = (id: string, displayName: string, n: number) =>
    buildEvent.supporter({
      id,
      displayName,
      supporterCount: 300 + n,
      fundingTotal: 7_000 + n * 25,
      occurredAt: day.clock.now(),
      detectedAt: day.clock.now(),
    });
  const expectInert = (body: SentBody) => {
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const text = JSON.stringify(body.embeds);
    expect(text).not.toContain('@everyone');
    expect(text).not.toContain('](https://evil.example)');
  };

  it('the parent in the channel, a thread on it, replies in the thread, the parent and a reply edited after a restart: all inert', async () => {
    let h = await startBot();
    await h.offer(supporter('k1', hostileTexts.everyone, 1));
    await h.offer(supporter('k2', hostileTexts.markdownLink, 2));
    expect(inChannel()).toHaveLength(1);
    const starts = day.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/threads'));
    expect(starts).toHaveLength(1);
    expect(starts[0]?.path).toBe(`/channels/${channel.channelId}/messages/${threadId()}/threads`);
    expect((starts[0]!.body as { name: string }).name).toBe('Supporters 2026-01-01 · solar-kiosk');
    expect(inThread()).toHaveLength(2);
    const replyPosts = day.fake.requests.filter(
      (r) => r.method === 'POST' && r.path === `/channels/${threadId()}/messages`,
    );
    expect(replyPosts).toHaveLength(2);
    for (const post of replyPosts) expectInert(post.body as SentBody);

    h = await startBot(); // the parent's and the thread's ids come from the store
    await runFor(h, 60_000, 10_000);
    const parentPatches = day.fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path === `/channels/${channel.channelId}/messages/${threadId()}`,
    );
    expect(parentPatches).toHaveLength(1);
    const parentBody = parentPatches[0]?.body as SentBody;
    expectInert(parentBody);
    expect(parentBody.embeds[0]?.description).toContain('2 new supporters today · supporter count 302');
    expect(parentBody.embeds[0]?.description).toContain('▰');

    // A support in the thread drops out: its reply is edited where it lives, in the thread.
    const drop = supportDroppedOf(supporter('k1', hostileTexts.everyone, 1), 'k1', day.clock.now());
    await h.offer(drop);
    const replyPatches = day.fake.requests.filter(
      (r) =>
        r.method === 'PATCH' &&
        r.path === `/channels/${threadId()}/messages/${String(inThread()[0]?.['id'])}`,
    );
    expect(replyPatches).toHaveLength(1);
    expectInert(replyPatches[0]?.body as SentBody);
    expect(inChannel()).toHaveLength(1);
  });

  it('a reply lost in a crash is found in the thread after a restart past the nonce window: posted once', async () => {
    let h = await startBot();
    await h.offer(supporter('k1', 'Ada', 1));
    day.fake.faultMessages({ afterCreate: 'drop' });
    const lost = supporter('k2', 'Bob', 2);
    await h.offer(lost);
    expect(inThread()).toHaveLength(2);
    h = await startBot();
    day.fake.setNonceWindowMs(0); // past the window Discord would create a second message
    day.clock.advance(nonceWindowMs);
    await h.offer(lost);
    await h.advance(settleMs);
    expect(await h.offer(lost)).toEqual([lost.id]);
    expect(inThread()).toHaveLength(2);
    expect(inChannel()).toHaveLength(1);
    const looks = day.fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/messages'));
    expect(looks.map((r) => r.path)).toEqual([`/channels/${threadId()}/messages`]);
  });

  it('starting the thread again (a restart before its id was stored) returns the same thread', async () => {
    const h = await startBot();
    const parent = await h.adapter.poster.post(channel, { title: 'parent' }, 'p1');
    const id = (parent as { messageId: string }).messageId;
    const first = await h.adapter.poster.startThread?.(channel, id, 'Supporters');
    const again = await h.adapter.poster.startThread?.(channel, id, 'Supporters');
    expect(first).toEqual({ parentMessageId: id, threadId: id });
    expect(again).toEqual(first);
  });
});
