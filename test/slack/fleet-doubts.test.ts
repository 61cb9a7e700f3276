/**
 * Issue 29, build item 3 on Slack: several channels of one workspace in doubt share one look a minute
 * (conversations.history for apps outside the Marketplace): the looks go to the channels oldest doubt first,
 * whichever order their lanes wake in; with message events, every doubt of the fleet settles without a look.
 * Real Web API client, real pipeline, the fake Slack enforcing the one call a minute; a virtual clock.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryObserver } from '../../src/delivery/index.js';
import { runFor } from '../delivery/pipeline-harness.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  eventIdsIn,
  historyIntervalMs,
  lookAfterMs,
  type SlackPipeline,
  slackBotPerTest,
  slackChannel,
  startWitnessedSlack,
} from './slack-pipeline.js';

const startBot = slackBotPerTest();
const startWitnessed = slackBotPerTest(startWitnessedSlack);
/** Channel i gets project i's notices, so each channel's doubt begins when the test says. */
const channels = ['C01', 'C02', 'C03', 'C04', 'C05'];
const projectOf = (channelId: string) => `project-${channelId.toLowerCase()}`;

async function subscribeAll(bot: SlackPipeline) {
  for (const id of channels) {
    await bot.subscribe(slackChannel(id), ['supporters'], projectOf(id));
    await bot.pacing.setKind(slackChannel(id), 'supporters', { mode: 'live' });
  }
}

const supporter = (channelId: string, n: number, at: number) =>
  buildEvent.supporter({
    id: `${channelId}-s${n}`,
    project: projectOf(channelId),
    displayName: `Fan ${n}`,
    occurredAt: at,
    detectedAt: at,
  });

describe('Slack: the doubts of a workspace share its look a minute, oldest first', () => {
  it('five channels whose posts landed unanswered: looked at in the order their doubts began', async () => {
    const clock = new ManualClock(t0);
    const resolved: string[] = [];
    const observer: DeliveryObserver = { doubtResolved: ({ id }) => resolved.push(id) };
    const bot = await startBot(clock, { observer });
    await subscribeAll(bot);
    await bot.subscribe(slackChannel('C00'), ['supporters'], projectOf('C00'));
    await bot.pacing.setKind(slackChannel('C00'), 'supporters', { mode: 'live' });
    for (const id of ['C00', ...channels]) await bot.offer(supporter(id, 0, clock.now()));
    const lost = async (id: string, n: number) => {
      bot.fake.fail('chat.postMessage', { afterPost: 'drop' }, 1);
      await bot.offer(supporter(id, n, clock.now()));
    };
    // A first doubt spends the minute's look; five more begin meanwhile, 2 s apart, in this order.
    await lost('C00', 1);
    await runFor(bot, 10_000, 1_000);
    const order = ['C05', 'C03', 'C01', 'C04', 'C02'];
    for (const id of order) {
      await lost(id, 1);
      await runFor(bot, 2_000, 1_000);
    }
    // The oldest channel gets a second, younger doubt: its lane now wakes after the others when the minute
    // ends (a lane's turn must not depend on when it last woke).
    await runFor(bot, 25_000, 1_000);
    await lost('C05', 2);
    await runFor(bot, lookAfterMs + (order.length + 1) * historyIntervalMs, 1_000);
    const looks = bot.fake.callsTo('conversations.history');
    // One look a minute, the oldest doubt's channel first (C05's look also finds its younger post).
    expect(looks.map((c) => c.args['channel'])).toEqual(['C00', ...order]);
    expect(looks.every((c) => c.outcome === 'ok')).toBe(true);
    expect(resolved.filter((id) => id.endsWith('-s1'))).toEqual(['C00-s1', ...order.map((id) => `${id}-s1`)]);
    expect(resolved).toContain('C05-s2');
    for (const id of order) expect(eventIdsIn(bot.fake, id).filter((e) => e === `${id}-s1`)).toHaveLength(1);
  });

  it('with message events, five channels in doubt settle without a look', async () => {
    const clock = new ManualClock(t0);
    const resolved: string[] = [];
    const sighted: string[] = [];
    const observer: DeliveryObserver = {
      doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`),
      sighted: ({ messageId }) => sighted.push(messageId),
    };
    const bot = await startWitnessed(clock, { observer });
    await subscribeAll(bot);
    for (const id of channels) await bot.offer(supporter(id, 0, clock.now()));
    await bot.fake.waitFor(() => sighted.length === channels.length, 'the first posts seen');
    for (const id of channels) {
      bot.fake.fail('chat.postMessage', { afterPost: 'hang' }, 1);
      await bot.offer(supporter(id, 1, clock.now()));
    }
    await bot.fake.waitFor(() => resolved.length === channels.length, 'every doubt decided by its event');
    await bot.settle();
    expect(resolved.sort()).toEqual(channels.map((id) => `${id}-s1:found`));
    expect(bot.fake.callsTo('conversations.history')).toHaveLength(0);
    for (const id of channels) expect(eventIdsIn(bot.fake, id)).toEqual([`${id}-s0`, `${id}-s1`]);
  });
});
