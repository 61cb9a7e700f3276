/**
 * Exactly once on Slack: the REAL Web API client (the Slack adapter's poster) in the
 * real delivery pipeline against the fake Slack, with the post landing and then its
 * answer lost in every way the platform loses it: a hang until the client times out,
 * a dropped connection, the server killed mid-request. The doubt is decided by a
 * look (conversations.history, one call a minute per workspace), never by posting
 * blind; after recovery every event is in the channel exactly once, also across a
 * restart on a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { runFor } from '../delivery/pipeline-harness.js';
import type { FakeSlack } from '../fakes/slack/fake-slack.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  absentAfterMs,
  historyIntervalMs,
  lookAfterMs,
  postTimeoutMs,
  type SlackPipeline,
  settleMs,
  slackChannel,
  startClockedFakeSlack,
  startSlackPipeline,
} from './slack-pipeline.js';

const channel = slackChannel('C0CHAN');

describe('Slack: exactly one message per event when the answer to a post is lost', () => {
  let dir: string;
  let clock: ManualClock;
  let fake: FakeSlack;
  let store: KeyValueStore;
  let bot: SlackPipeline;
  const resolved: string[] = [];

  /** One "process": a store opened from the SQLite file, the Slack adapter's poster, the pipeline. */
  async function startBot(): Promise<void> {
    store = await openStore(`sqlite://${join(dir, 'state.sqlite')}`);
    bot = await startSlackPipeline(fake, {
      clock,
      store,
      observer: { doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`) },
    });
  }

  /** A crash and a restart: nothing in memory survives, the SQLite file does. */
  async function restartBot(): Promise<void> {
    await bot.stop();
    await store.close();
    await startBot();
  }

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fundbot-slack-once-'));
    clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
    resolved.length = 0;
    fake = await startClockedFakeSlack(clock);
    await startBot();
    await bot.subscribe(channel, ['supporters']);
    await bot.pacing.setKind(channel, 'supporters', { mode: 'live' });
  });

  afterEach(async () => {
    await bot.stop();
    await store.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const inChannel = () => fake.messages.get('C0CHAN') ?? [];
  const supporter = (n = 1) =>
    buildEvent.supporter({ id: `fundings:${n}`, occurredAt: clock.now(), detectedAt: clock.now() });

  it.each([
    ['posts, then hangs until the client times out', { afterPost: 'hang' }],
    ['posts, then drops the connection', { afterPost: 'drop' }],
  ] as const)('%s: found by one look, never posted again', async (_, failure) => {
    fake.fail('chat.postMessage', failure, 1);
    const event = supporter();
    await bot.offer(event);
    expect(inChannel()).toHaveLength(1);

    // While the post might still land, the pipeline neither looks nor posts.
    await bot.advance(settleMs - 1);
    expect(fake.callsTo('conversations.history')).toHaveLength(0);
    expect(await bot.offer(event)).toEqual([]);

    // Settled; and the look waits until even Slack's clock is past where the post can be.
    await bot.advance(lookAfterMs - settleMs + 1);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    expect(fake.callsTo('conversations.history')[0]?.args).toMatchObject({
      channel: 'C0CHAN',
      include_all_metadata: 'true',
      limit: '15',
    });
    expect(resolved).toEqual([`${event.id}:found`]);
    expect(await bot.offer(event)).toEqual([event.id]);
    await runFor(bot, 2 * historyIntervalMs, 10_000);
    expect(inChannel()).toHaveLength(1);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('a slow answer within the post timeout is a plain success: no doubt, no look', async () => {
    fake.fail('chat.postMessage', { afterPost: 'slow', delayMs: postTimeoutMs / 2 }, 1);
    const event = supporter();
    await bot.offer(event);
    expect(await bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    await runFor(bot, lookAfterMs + historyIntervalMs, 10_000);
    expect(fake.callsTo('conversations.history')).toEqual([]);
    expect(resolved).toEqual([]);
  });

  it('the fake is killed mid-request, the bot restarts on the same SQLite file: one message', async () => {
    fake.fail('chat.postMessage', { afterPost: 'kill' }, 1);
    const event = supporter();
    await bot.offer(event);
    await fake.restart();
    await restartBot();
    // The outbox offers what it was never told was done.
    expect(await bot.offer(event)).toEqual([]);
    await bot.advance(lookAfterMs);
    expect(await bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);
    expect(resolved).toEqual([`${event.id}:found`]);
  });

  it('a post that never landed is posted after the look shows it absent, once, across a restart', async () => {
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    const event = supporter();
    await bot.offer(event);
    expect(inChannel()).toHaveLength(0);
    await restartBot();
    await bot.offer(event);
    await bot.advance(lookAfterMs);
    await runFor(bot, 2 * historyIntervalMs, 10_000);
    expect(await bot.offer(event)).toEqual([event.id]);
    expect(inChannel()).toHaveLength(1);
    expect(resolved).toEqual([`${event.id}:absent`]);
    // Posted after later notices could have gone: it says when it happened.
    expect(String(fake.callsTo('chat.postMessage')[1]?.args['text'])).toContain('Posted late');
  });

  it('ONE look resolves every event in doubt in the channel; a later one waits for the next allowed look', async () => {
    const events = [1, 2, 3].map(supporter);
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 3);
    await bot.offer(...events);
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
    await bot.advance(lookAfterMs);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    expect(resolved.sort()).toEqual(events.map((e) => `${e.id}:found`));

    // A fourth doubt right after: it waits for a look instead of posting. The next look the budget allows (a
    // minute after the first) could only find a landed post and would push the look that can prove it absent
    // (past Slack's late landings) to about 140 s: its one look is that one (look-timing.ts).
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const late = supporter(4);
    await bot.offer(late);
    await runFor(bot, lookAfterMs, 1_000);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    await runFor(bot, historyIntervalMs, 5_000);
    expect(fake.callsTo('conversations.history')).toHaveLength(1);
    await runFor(bot, absentAfterMs - historyIntervalMs, 5_000);
    expect(fake.callsTo('conversations.history')).toHaveLength(2);
    expect(fake.callsTo('conversations.history').every((c) => c.outcome === 'ok')).toBe(true);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(4);
    expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);

    // A spoofed "notice" from someone else does not count as posted.
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    const spoofed = supporter(9);
    await bot.offer(spoofed);
    // No message events here: absent only once a look covered the span Slack may still land it in.
    await runFor(bot, absentAfterMs + historyIntervalMs, 5_000);
    expect(inChannel().filter((m) => m.user === 'U0BOT')).toHaveLength(5);
    expect(resolved).toContain(`${spoofed.id}:absent`);
  });
});
