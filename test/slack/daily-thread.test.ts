/**
 * The daily thread on Slack, through the real pipeline and the real Web API client
 * against the fake: one parent a day in the channel, every supporter a reply
 * (`thread_ts`), the parent edited with chat.update; hostile names inert in replies
 * and parent; a reply or a parent whose answer was lost is found by a look after a
 * restart (conversations.replies in the thread, conversations.history in the channel),
 * never posted twice.
 */
import { describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { goalOf20k, liveIn } from '../delivery/restartable-process.js';
import { buildEvent } from '../support/event-builders.js';
import { hostileTexts } from '../support/hostile-text.js';
import { lookAfterMs, restartableSlackPerTest, slackChannel } from './slack-pipeline.js';

const channel = slackChannel('C0CHAN');

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
  /** One "process" at a time over one store: `startBot` is a restart. */
  const day = restartableSlackPerTest({
    setUp: liveIn(channel, { dailyThread: true }),
    overrides: goalOf20k,
  });
  const startBot = () => day.start();

  const all = () => day.fake.messages.get(channel.channelId) ?? [];
  const inChannel = () => all().filter((m) => m.thread_ts === undefined);
  const replies = () => all().filter((m) => m.thread_ts !== undefined);
  const supporter = (id: string, displayName: string, n: number) =>
    buildEvent.supporter({
      id,
      displayName,
      supporterCount: 200 + n,
      fundingTotal: 9_000 + n * 50,
      occurredAt: day.clock.now(),
      detectedAt: day.clock.now(),
    });

  it('one line in the channel, replies in the thread, hostile names inert in replies and in the edited parent', async () => {
    let h = await startBot();
    await h.offer(supporter('k1', hostileTexts.slackChannel, 1));
    await h.offer(supporter('k2', hostileTexts.slackLink, 2));
    expect(inChannel()).toHaveLength(1);
    const parentTs = inChannel()[0]!.ts;
    expect(replies().map((m) => m.thread_ts)).toEqual([parentTs, parentTs]);
    const posts = day.fake.callsTo('chat.postMessage');
    expect(posts[0]?.args['thread_ts']).toBeUndefined();
    expect(posts[0]?.args['text']).toContain('Supporters on');
    for (const reply of posts.slice(1)) {
      const wire = parsedParts(reply.args);
      expect(wire).toMatch(/&lt;!channel&gt;|&lt;https:\/\/evil\.example/);
      expect(wire).not.toContain('<!channel>');
      expect(wire).not.toContain('<https://evil.example');
      expect(reply.args['reply_broadcast']).toBeUndefined();
    }

    h = await startBot(); // a restart: the parent's ts comes from the store
    await runFor(h, 60_000, 10_000);
    const updates = day.fake.callsTo('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args['ts']).toBe(parentTs);
    const edited = parsedParts(updates[0]!.args);
    expect(edited).toContain('2 new supporters today');
    expect(edited).toContain('supporter count 202');
    expect(edited).toContain('&lt;https://evil.example|click me&gt;');
    expect(edited).not.toContain('<https://evil.example');
    expect(edited).not.toContain('<!channel>');
    expect(JSON.stringify(updates[0]?.args['blocks'])).toContain('▰');
    await h.offer(supporter('k3', 'Cleo', 3));
    expect(inChannel()).toHaveLength(1);
    expect(replies()).toHaveLength(3);
  });

  it('a reply whose answer was lost is found in the thread by conversations.replies after a restart: posted once', async () => {
    let h = await startBot();
    await h.offer(supporter('k1', 'Ada', 1));
    day.fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const lost = supporter('k2', 'Bob', 2);
    await h.offer(lost);
    expect(replies()).toHaveLength(2);

    h = await startBot();
    await h.offer(lost);
    await h.advance(lookAfterMs);
    expect(await h.offer(lost)).toEqual([lost.id]);
    expect(replies()).toHaveLength(2);
    expect(day.fake.duplicateEventIds(channel.channelId)).toEqual([]);
    const looks = day.fake.callsTo('conversations.replies');
    expect(looks).toHaveLength(1);
    expect(looks[0]?.args).toMatchObject({ channel: 'C0CHAN', ts: inChannel()[0]!.ts });
    expect(day.fake.callsTo('conversations.history')).toHaveLength(0);
    expect(inChannel()).toHaveLength(1);
  });

  it('a parent whose answer was lost is found in the channel history after a restart: one parent, the replies under it', async () => {
    let h = await startBot();
    day.fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const ada = supporter('k1', 'Ada', 1);
    await h.offer(ada);
    expect(inChannel()).toHaveLength(1);
    expect(replies()).toHaveLength(0);

    h = await startBot();
    await h.offer(ada, supporter('k2', 'Bob', 2));
    await runFor(h, lookAfterMs + 10_000, 1_000);
    expect(inChannel()).toHaveLength(1);
    expect(day.fake.callsTo('conversations.history')).toHaveLength(1);
    const parentTs = inChannel()[0]!.ts;
    expect(replies().map((m) => m.thread_ts)).toEqual([parentTs, parentTs]);
    expect(day.fake.duplicateEventIds(channel.channelId)).toEqual([]);
  });
});
