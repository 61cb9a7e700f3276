/**
 * Issue 21 on Slack, with the REAL Web API client against the fake Slack and the real
 * delivery pipeline: a post refused with `not_in_channel` is held, never dropped; the
 * channel is marked "cannot post" (the state the commands and the health detail read); the re-check
 * (conversations.info) finds the bot invited again and the held notices go out as ONE
 * catch-up, every supporter named: those the message cannot hold are listed in its
 * thread (replies with `thread_ts`), and the count it states equals the names listed.
 */
import { describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import type { FakeSlackMessage } from '../fakes/slack/fake-slack.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { countOfTitle, longNames, namesOfLine } from '../support/name-lists.js';
import { blockTexts, slackBotPerTest, slackChannel } from './slack-pipeline.js';

const campaign = slackChannel('C0CHAN');
const startBot = slackBotPerTest();

const supporters = (names: readonly string[], from = 1) =>
  names.map((displayName, i) =>
    buildEvent.supporter({
      id: `s${from + i}`,
      displayName,
      supporterCount: 100 + from + i,
      fundingTotal: 5_000 + (from + i) * 10,
    }),
  );

describe('Slack: a channel the bot was removed from', () => {
  it('holds every notice, shows "cannot post", and after the re-invite posts one catch-up naming everyone', async () => {
    const clock = new ManualClock(t0);
    const h = await startBot(clock);
    const { fake } = h;
    await h.subscribe(campaign, ['supporters']);
    await h.pacing.setKind(campaign, 'supporters', { mode: 'live' });
    fake.setChannel({ id: 'C0CHAN', isMember: false });

    const names = longNames(120);
    const first = supporters(names.slice(0, 100));
    await h.offer(...first);
    // Held is done for the outbox once their batch is stored (one write a few seconds later, told at the
    // next offer): every notice is kept in the store, none dropped.
    await h.advance(5_000);
    expect(await h.offer(...first)).toEqual(first.map((e) => e.id));
    expect(fake.messages.get('C0CHAN') ?? []).toEqual([]);
    // One refused post told it all: the rest were held without asking Slack again.
    expect(fake.callsTo('chat.postMessage').map((c) => c.outcome)).toEqual(['not_in_channel']);
    expect(h.delivery.status().cannotPost).toEqual([
      { channel: 'slack:T0FAKE:C0CHAN', reason: 'not-member', since: t0 },
    ]);
    // The state /subscriptions, /status and the health detail read.
    expect(await h.access.get(campaign)).toMatchObject({ reason: 'not-member', since: t0 });

    // Re-checked with conversations.info while it lasts; supporters keep coming and are held too.
    await runFor(h, 2 * 60_000, 5_000);
    const rest = supporters(names.slice(100), 101);
    await h.offer(...rest);
    await h.advance(5_000);
    expect(await h.offer(...rest)).toEqual(rest.map((e) => e.id));
    expect(fake.callsTo('conversations.info').length).toBeGreaterThanOrEqual(2);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);

    // The bot is invited again: the next re-check finds it a member.
    fake.setChannel({ id: 'C0CHAN', isMember: true });
    await runFor(h, 5 * 60_000, 5_000);
    expect(h.delivery.status().cannotPost).toEqual([]);
    expect(await h.access.get(campaign)).toBeUndefined();

    const all = fake.messages.get('C0CHAN') ?? [];
    const parents = all.filter((m) => m.thread_ts === undefined);
    expect(parents).toHaveLength(1);
    const parent = parents[0] as FakeSlackMessage;
    const replies = all.filter((m) => m.thread_ts !== undefined);
    expect(replies.length).toBeGreaterThan(0);
    expect(replies.every((m) => m.thread_ts === parent.ts)).toBe(true);

    const posts = fake.callsTo('chat.postMessage').filter((c) => c.outcome === 'ok');
    const [title = '', text = ''] = blockTexts(posts[0]!);
    const lines = text.split('\n');
    expect(lines[0]).toBe('Held while fundbot could not post in this channel');
    expect(countOfTitle(title)).toBe(120);
    const inMessage = namesOfLine(lines[1] ?? '');
    const inThread = posts.slice(1).flatMap((call) => namesOfLine(blockTexts(call)[1] ?? '').names);
    expect(posts.slice(1).every((call) => call.args['thread_ts'] === parent.ts)).toBe(true);
    expect(inMessage.more).toBe(inThread.length);
    expect([...inMessage.names, ...inThread]).toEqual(names);

    // Offered again (the outbox after a restart): nothing more is posted.
    expect(await h.offer(...first, ...rest)).toHaveLength(120);
    expect(fake.messages.get('C0CHAN')).toHaveLength(all.length);
  });
});
