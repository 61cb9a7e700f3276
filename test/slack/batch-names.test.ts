/**
 * Issue 21 "every supporter named" on Slack, with the real Web API client against the
 * fake Slack: a batched window with more supporters than one message can name posts ONE
 * message, and the names it cannot hold follow as replies in its thread; the count it
 * states equals the names listed, each name once.
 */
import { describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { countOfTitle, longNames, namesOfLine } from '../support/name-lists.js';
import { blockTexts, slackBotPerTest, slackChannel } from './slack-pipeline.js';

const campaign = slackChannel('C0CHAN');
const startBot = slackBotPerTest();

describe('Slack: a batch with more names than one message holds', () => {
  it('posts one message and lists the rest in its thread: the stated count equals the names listed', async () => {
    const clock = new ManualClock(t0);
    const h = await startBot(clock);
    const { fake } = h;
    await h.subscribe(campaign, ['supporters']);
    await h.pacing.setKind(campaign, 'supporters', { mode: 'batched', intervalMs: 15 * 60_000 });
    const names = longNames(200);
    await h.offer(...names.map((displayName, i) => buildEvent.supporter({ id: `s${i + 1}`, displayName })));
    expect(fake.callsTo('chat.postMessage')).toEqual([]);

    await runFor(h, 16 * 60_000, 60_000);
    const all = fake.messages.get('C0CHAN') ?? [];
    const parents = all.filter((m) => m.thread_ts === undefined);
    expect(parents).toHaveLength(1);
    const posts = fake.callsTo('chat.postMessage');
    expect(posts.every((c) => c.outcome === 'ok')).toBe(true);
    expect(posts.slice(1).length).toBeGreaterThanOrEqual(2);
    expect(posts.slice(1).every((c) => c.args['thread_ts'] === parents[0]?.ts)).toBe(true);

    const [title = '', text = ''] = blockTexts(posts[0]!);
    expect(countOfTitle(title)).toBe(200);
    const inMessage = namesOfLine(text.split('\n')[0] ?? '');
    const inThread = posts.slice(1).map((c) => blockTexts(c));
    expect(inThread.map(([part]) => part)).toEqual(
      inThread.map((_, i) => `Supporters, continued (${i + 1} of ${inThread.length})`),
    );
    const threadNames = inThread.flatMap(([, list]) => namesOfLine(list ?? '').names);
    expect(inMessage.more).toBe(threadNames.length);
    expect([...inMessage.names, ...threadNames]).toEqual(names);
  });
});
