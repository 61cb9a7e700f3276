/**
 * Exactly once on Slack: the REAL Web API client (the Slack adapter's poster) in the
 * real delivery pipeline against the fake Slack, with the post landing and then its
 * answer lost in every way the platform loses it: a hang until the client times out,
 * a dropped connection, the server killed mid-request. The doubt is decided by a
 * look (conversations.history, one call a minute per workspace), never by posting
 * blind; after recovery every event is in the channel exactly once, also across a
 * restart on a real SQLite file.
 */
import { describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import { liveIn } from '../delivery/restartable-process.js';
import { buildEvent } from '../support/event-builders.js';
import {
  absentAfterMs,
  historyIntervalMs,
  lookAfterMs,
  postTimeoutMs,
  restartableSlackPerTest,
  settleMs,
  slackChannel,
} from './slack-pipeline.js';

const channel = slackChannel('C0CHAN');

describe('Slack: exactly one message per event when the answer to a post is lost', () => {
  /** One "process" at a time over one SQLite file: a crash and a restart lose what is in memory, not the file. */
  const run = restartableSlackPerTest({
    setUp: liveIn(channel),
    startsAt: Date.UTC(2026, 2, 2, 9),
    store: 'sqlite',
  });

  const inChannel = () => run.fake.messages.get('C0CHAN') ?? [];
  const supporter = (n = 1) =>
    buildEvent.supporter({ id: `fundings:${n}`, occurredAt: run.clock.now(), detectedAt: run.clock.now() });

  it.each([
    ['posts, then hangs until the client times out', { afterPost: 'hang' }],
    ['posts, then drops the connection', { afterPost: 'drop' }],
  ] as const)('%s: found by one look, never posted again', async (_, failure) => {
    run.fake.fail('chat.postMessage', failure, 1);
    const event = supporter();
    await run.bot.offer(event);
    expect(inChannel()).toHaveLength(1);

    // While the post might still land, the pipeline neither looks nor posts.
    await run.bot.advance(settleMs - 1);
    expect(run.fake.callsTo('conversations.history')).toHaveLength(0);
    expect(await run.bot.offer(event)).toEqual([]);

    // Settled; and the look waits until even Slack's clock is past where the post can be.
    await run.bot.advance(lookAfterMs - settleMs + 1);
    expect(run.fake.callsTo('conversations.history')).toHaveLength(1);
    expect(run.fake.callsTo('conversations.history')[0]?.args).toMatchObject({
      channel: 'C0CHAN',
      include_all_metadata: 'true',
      limit: '15',
    });
    expect(run.resolved).toEqual([`${event.id}:found`]);
    expect(await run.bot.offer(event)).toEqual([event.id]);
    await runFor(run.bot, 2 * historyIntervalMs, 10_000);
    expect(inChannel()).toHaveLength(1);
    expect(run.fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('a slow answer within the post timeout is a plain success: no doubt, no look', async () => {
    run.fake.fail('chat.postMessage', { afterPost: 'slow', delayMs: postTimeoutMs / 2 }, 1);
    const event = supporter();
    await run.bot.offer(event);
    expect(await run.bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    await runFor(run.bot, lookAfterMs + historyIntervalMs, 10_000);
    expect(run.fake.callsTo('conversations.history')).toEqual([]);
    expect(run.resolved).toEqual([]);
  });

  it('the fake is killed mid-request, the bot restarts on the same SQLite file: one message', async () => {
    run.fake.fail('chat.postMessage', { afterPost: 'kill' }, 1);
    const event = supporter();
    await run.bot.offer(event);
    await run.fake.restart();
    await run.start();
    // The outbox offers what it was never told was done.
    expect(await run.bot.offer(event)).toEqual([]);
    await run.bot.advance(lookAfterMs);
    expect(await run.bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    expect(run.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(run.fake.duplicateEventIds('C0CHAN')).toEqual([]);
    expect(run.resolved).toEqual([`${event.id}:found`]);
  });

  it('a post that never landed is posted after the look shows it absent, once, across a restart', async () => {
    run.fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    const event = supporter();
    await run.bot.offer(event);
    expect(inChannel()).toHaveLength(0);
    await run.start();
    await run.bot.offer(event);
    await run.bot.advance(lookAfterMs);
    await runFor(run.bot, 2 * historyIntervalMs, 10_000);
    expect(await run.bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    expect(run.resolved).toEqual([`${event.id}:absent`]);
    // Posted after later notices could have gone: it says when it happened.
    expect(String(run.fake.callsTo('chat.postMessage')[1]?.args['text'])).toContain('Posted late');
  });

  it('ONE look resolves every event in doubt in the channel; a later one waits for the next allowed look', async () => {
    const events = [1, 2, 3].map(supporter);
    run.fake.fail('chat.postMessage', { afterPost: 'drop' }, 3);
    await run.bot.offer(...events);
    // Other people talk in the channel meanwhile: only the bot's own messages count.
    run.fake.addMessage({
      channel: 'C0CHAN',
      user: 'U0HUMAN',
      text: 'spoofed',
      metadata: {
        event_type: 'fundbot_notice',
        event_payload: { event_id: 'fundings:9@slack:T0FAKE:C0CHAN' },
      },
    });
    await run.bot.advance(lookAfterMs);
    expect(run.fake.callsTo('conversations.history')).toHaveLength(1);
    expect([...run.resolved].sort()).toEqual(events.map((e) => `${e.id}:found`));

    // A fourth doubt right after: it waits for the next look instead of posting.
    run.fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const late = supporter(4);
    await run.bot.offer(late);
    await runFor(run.bot, lookAfterMs, 1_000);
    expect(run.fake.callsTo('conversations.history')).toHaveLength(1);
    await runFor(run.bot, historyIntervalMs, 5_000);
    expect(run.fake.callsTo('conversations.history')).toHaveLength(2);
    expect(run.fake.callsTo('conversations.history').every((c) => c.outcome === 'ok')).toBe(true);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(4);
    expect(run.fake.duplicateEventIds('C0CHAN')).toEqual([]);

    // A spoofed "notice" from someone else does not count as posted.
    run.fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    const spoofed = supporter(9);
    await run.bot.offer(spoofed);
    // No message events here: absent only once a look covered the span Slack may still land it in.
    await runFor(run.bot, absentAfterMs + historyIntervalMs, 5_000);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(5);
    expect(run.resolved).toContain(`${spoofed.id}:absent`);
  });
});
