/**
 * The Slack look (slack-look.ts) as the pipeline's doubt resolver spends it, through
 * the real Web API client against the fake Slack (which allows one
 * conversations.history call a minute and 15 messages a page, as Slack does for apps
 * outside the Marketplace): a channel busier than one page is read on by cursor at the
 * next allowed call, never guessed; every channel of the workspace shares that one
 * call a minute; an attempt that had not settled when a look was made waits for the next.
 * No message events here (no witness): a look finds a post that landed at once, and one
 * proves a post absent only once the span Slack may still land it in has passed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runFor } from '../delivery/pipeline-harness.js';
import type { FakeSlack } from '../fakes/slack/fake-slack.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  absentAfterMs,
  eventIdsIn,
  historyIntervalMs,
  lookAfterMs,
  type SlackPipeline,
  slackChannel,
  startClockedFakeSlack,
  startSlackPipeline,
} from './slack-pipeline.js';

const busy = slackChannel('C0BUSY');
const quiet = slackChannel('C0QUIET');

describe('Slack: doubts decided by looking, within one call a minute per workspace', () => {
  let clock: ManualClock;
  let fake: FakeSlack;
  let bot: SlackPipeline;
  const resolved: string[] = [];

  beforeEach(async () => {
    clock = new ManualClock(t0);
    resolved.length = 0;
    fake = await startClockedFakeSlack(clock);
    bot = await startSlackPipeline(fake, {
      clock,
      observer: { doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`) },
    });
    await watchLive(busy);
  });

  afterEach(async () => {
    await bot.stop();
    await fake.close();
  });

  async function watchLive(channel: typeof busy) {
    await bot.subscribe(channel, ['supporters']);
    await bot.pacing.setKind(channel, 'supporters', { mode: 'live' });
  }

  const supporter = (id: string) =>
    buildEvent.supporter({ id, occurredAt: clock.now(), detectedAt: clock.now() });
  const looks = () => fake.callsTo('conversations.history');

  it('reads a busy channel page by page, one call a minute, and finds the notice on the second page', async () => {
    // The first post lands and its answer is lost; twenty more land after it.
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const events = Array.from({ length: 21 }, (_, i) => supporter(`s${i + 1}`));
    for (const event of events) await bot.offer(event);
    expect(eventIdsIn(fake, 'C0BUSY')).toHaveLength(21);
    await bot.advance(lookAfterMs);
    // The newest 15 do not reach back to it: undecided, nothing posted.
    expect(looks()).toHaveLength(1);
    expect(resolved).toEqual([]);
    // The next look comes one budget interval after the first, not before.
    const firstAt = looks()[0]!.at;
    await runFor(bot, firstAt + historyIntervalMs - 1_000 - clock.now(), 5_000);
    expect(looks()).toHaveLength(1);
    await runFor(bot, 5_000);
    expect(looks().map((c) => c.outcome)).toEqual(['ok', 'ok']);
    expect(looks()[1]?.args['cursor']).toBe('15');
    // Same span as the first page: the cursor continues that sweep.
    expect(looks()[1]?.args['oldest']).toBe(looks()[0]?.args['oldest']);
    expect(looks()[1]?.args['latest']).toBe(looks()[0]?.args['latest']);
    expect(resolved).toEqual(['s1:found']);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(21);
    expect(fake.duplicateEventIds('C0BUSY')).toEqual([]);
  });

  it('a lost answer among notices every half second is found by the first look, where the post landed', async () => {
    fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
    const events = Array.from({ length: 24 }, (_, i) => supporter(`s${i + 1}`));
    for (const event of events) {
      await bot.offer(event);
      await bot.advance(500);
    }
    await runFor(bot, lookAfterMs, 500);
    // The span where the unanswered post may be holds more than a page of 15; its first seconds do not.
    expect(looks()).toHaveLength(1);
    expect(resolved).toEqual(['s1:found']);
    expect(fake.callsTo('chat.postMessage')).toHaveLength(24);
    expect(fake.duplicateEventIds('C0BUSY')).toEqual([]);
  });

  it('two channels of the workspace in doubt share the one call a minute', async () => {
    await watchLive(quiet);
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 2);
    await bot.offer(supporter('s1'));
    expect(
      fake
        .callsTo('chat.postMessage')
        .map((c) => c.args['channel'])
        .sort(),
    ).toEqual(['C0BUSY', 'C0QUIET']);
    await runFor(bot, absentAfterMs + 2 * historyIntervalMs, 5_000);
    // One look per minute in the fleet's budget: each channel's doubt got its turns, none answered 429.
    expect(new Set(looks().map((c) => c.args['channel']))).toEqual(new Set(['C0BUSY', 'C0QUIET']));
    expect(looks().every((c) => c.outcome === 'ok')).toBe(true);
    for (let i = 1; i < looks().length; i += 1)
      expect(looks()[i]!.at - looks()[i - 1]!.at).toBeGreaterThanOrEqual(historyIntervalMs);
    expect(resolved).toEqual(['s1:absent', 's1:absent']);
    expect(eventIdsIn(fake, 'C0BUSY')).toEqual(['s1']);
    expect(eventIdsIn(fake, 'C0QUIET')).toEqual(['s1']);
  });

  it('an attempt that had not settled when a look was made is not cleared by it: it waits for the next one', async () => {
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    await bot.offer(supporter('early'));
    await bot.advance(lookAfterMs);
    // The first look could only have found it; the one after the late-landing span proves it absent.
    expect(looks()).toHaveLength(1);
    expect(resolved).toEqual([]);
    await runFor(bot, absentAfterMs - lookAfterMs + 1_000, 1_000);
    expect(looks()).toHaveLength(2);
    expect(resolved).toEqual(['early:absent']);

    // A second doubt right after that look: the look said nothing about it.
    fake.fail('chat.postMessage', { beforePost: 'hang' }, 1);
    await bot.offer(supporter('later'));
    await runFor(bot, lookAfterMs + 1_000, 1_000);
    expect(looks()).toHaveLength(2);
    expect(eventIdsIn(fake, 'C0BUSY')).toEqual(['early']);
    await runFor(bot, absentAfterMs + historyIntervalMs, 5_000);
    expect(resolved).toEqual(['early:absent', 'later:absent']);
    expect(eventIdsIn(fake, 'C0BUSY')).toEqual(['early', 'later']);
  });
});
