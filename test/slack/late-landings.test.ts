/**
 * Issue 29, build item 2 on Slack: a post Slack took but answered and landed late (25 to 90 s after it was sent,
 * long after the client's timeout) stands ONCE in the channel. Through the real Web API client and the real
 * pipeline against the fake Slack, on a virtual clock (the fake's late landings wait on it too):
 * - without message events, nothing is posted again before a look covered the span Slack may still land it in:
 *   the late post is found, not duplicated;
 * - with message events (the witness), the doubt is decided at once: posted again, and the late copy removed the
 *   moment its event shows it (live notices, a batch, a thread reply);
 * - the events settle a channel's doubt without any look: a landed post by its event, one that never landed by
 *   the events' silence past where it would have landed.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryObserver } from '../../src/delivery/index.js';
import { runFor } from '../delivery/pipeline-harness.js';
import { type FakeSlack, type FakeSlackMessage, lateAnswer } from '../fakes/slack/fake-slack.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import {
  absentAfterMs,
  eventIdsIn,
  historyIntervalMs,
  lookAfterMs,
  type SlackPipeline,
  slackBotPerTest,
  slackChannel,
  startWitnessedSlack,
} from './slack-pipeline.js';

const campaign = slackChannel('C0CHAN');
const startBot = slackBotPerTest();
const startWitnessed = slackBotPerTest(startWitnessedSlack);
const late = [25_000, 35_000, 60_000, 90_000];

function recorder() {
  const resolved: string[] = [];
  const removed: string[] = [];
  const sighted: string[] = [];
  const observer: DeliveryObserver = {
    doubtResolved: ({ id, outcome }) => resolved.push(`${id}:${outcome}`),
    extraCopyRemoved: ({ id, how }) => removed.push(`${id}:${how}`),
    sighted: ({ messageId }) => sighted.push(messageId),
  };
  return { resolved, removed, sighted, observer };
}

const supporter = (id: string, at: number, project = 'solar-kiosk') =>
  buildEvent.supporter({ id, project, displayName: `Fan ${id}`, occurredAt: at, detectedAt: at });

async function live(bot: SlackPipeline, channel = campaign, project = 'solar-kiosk') {
  await bot.subscribe(channel, ['supporters'], project);
  await bot.pacing.setKind(channel, 'supporters', { mode: 'live' });
}

/** The delivery's event id a message carries. */
const eventIdOf = (m: FakeSlackMessage) => String(m.metadata?.event_payload['event_id'] ?? '').split('@')[0];

/** Copies of a delivery in the channel (its replies included), by event id. */
const copiesOf = (fake: FakeSlack, channelId: string, id: string) =>
  eventIdsIn(fake, channelId).filter((e) => e === id).length;

/** Waits (real time) until the bot has seen its own message `ts`, then lets the pipeline finish. */
async function sightedTs(bot: SlackPipeline, sighted: readonly string[], ts: string | undefined) {
  await bot.fake.waitFor(() => ts !== undefined && sighted.includes(ts), `the event of message ${ts}`);
  await bot.settle();
}

describe('Slack without message events: the look covers where a late post can still land', () => {
  it.each(late)('answered and landed %i ms late: found by the look, never posted again', async (lateMs) => {
    const clock = new ManualClock(t0);
    const { resolved, observer } = recorder();
    const bot = await startBot(clock, { observer });
    await live(bot);
    bot.fake.fail('chat.postMessage', lateAnswer(lateMs), 1);
    await bot.offer(supporter('s1', clock.now()));
    // A first look finds nothing (it has not landed); no repost before the late-landing span has passed.
    await runFor(bot, lookAfterMs + 1_000, 1_000);
    expect(bot.fake.callsTo('conversations.history').length).toBeGreaterThan(0);
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(1);
    await runFor(bot, absentAfterMs + historyIntervalMs, 5_000);
    expect(resolved).toEqual(['s1:found']);
    expect(copiesOf(bot.fake, 'C0CHAN', 's1')).toBe(1);
    expect(bot.fake.callsTo('chat.postMessage')).toHaveLength(1);
    expect(bot.fake.callsTo('chat.delete')).toHaveLength(0);
  });
});

describe('Slack with message events: posted again at once, the late copy removed as it lands', () => {
  it.each(late)('a live notice answered and landed %i ms late stands once', async (lateMs) => {
    const clock = new ManualClock(t0);
    const { resolved, removed, sighted, observer } = recorder();
    const bot = await startWitnessed(clock, { observer });
    await live(bot);
    // A first notice: its event shows the bot that Slack's events come (the witness is live).
    await bot.offer(supporter('s0', clock.now()));
    await sightedTs(bot, sighted, bot.fake.messages.get('C0CHAN')?.[0]?.ts);
    bot.fake.fail('chat.postMessage', lateAnswer(lateMs), 1);
    const sentAt = clock.now();
    await bot.offer(supporter('s1', clock.now()));
    await runFor(bot, lateMs - 1_000, 1_000);
    // Decided absent by a look as soon as it settled (a late copy would be removed): posted again, long
    // before it lands.
    expect(resolved).toEqual(['s1:absent']);
    expect(copiesOf(bot.fake, 'C0CHAN', 's1')).toBe(1);
    await bot.advance(clock.now() < sentAt + lateMs ? sentAt + lateMs - clock.now() : 0);
    await bot.fake.waitFor(() => bot.fake.deleted.length === 1, 'the late copy to be removed');
    await bot.settle();
    expect(removed).toEqual(['s1:sighted']);
    expect(copiesOf(bot.fake, 'C0CHAN', 's1')).toBe(1);
    const [gone] = bot.fake.deleted;
    // The late original is removed, the repost (which the ledger names) stands; seen twice for no virtual time.
    expect(Number(gone?.message.ts) * 1000).toBe(sentAt + lateMs);
    expect((gone?.deletedAt ?? 0) - sentAt - lateMs).toBeLessThanOrEqual(1_000);
  });

  it('a batch answered 35 s late stands once: the late copy is removed as it lands', async () => {
    const clock = new ManualClock(t0);
    const { sighted, removed, observer } = recorder();
    const bot = await startWitnessed(clock, { observer });
    const windowMs = 5 * 60_000;
    await bot.subscribe(campaign, ['supporters']);
    await bot.pacing.setKind(campaign, 'supporters', { mode: 'batched', intervalMs: windowMs });
    const batchWith = (name: string) =>
      (bot.fake.messages.get('C0CHAN') ?? []).filter((m) => JSON.stringify(m.blocks).includes(name));
    // A first batch goes out; its event shows the witness is live.
    await bot.offer(...['a1', 'a2'].map((id) => supporter(id, clock.now())));
    await runFor(bot, windowMs, 10_000);
    await sightedTs(bot, sighted, batchWith('Fan a1')[0]?.ts);
    // The next batch's post is taken, answered and landed 35 s later.
    await bot.offer(...['b1', 'b2', 'b3'].map((id) => supporter(id, clock.now())));
    bot.fake.fail('chat.postMessage', lateAnswer(35_000), 1);
    await runFor(bot, windowMs + 40_000, 1_000);
    await bot.fake.waitFor(() => bot.fake.deleted.length === 1, 'the late batch copy to be removed');
    await bot.settle();
    expect(batchWith('Fan b1')).toHaveLength(1);
    expect(removed).toHaveLength(1);
    expect(JSON.stringify(bot.fake.deleted[0]?.message.blocks)).toContain('Fan b1');
  });
});

describe('Slack daily thread with message events: a parent and a reply answered 35 s late stand once', () => {
  it('the late parent and the late reply are removed as they land; the replies stay under the parent that stays', async () => {
    const clock = new ManualClock(t0);
    const { sighted, removed, observer } = recorder();
    const bot = await startWitnessed(clock, { observer, overrides: { goalOf: async () => 20_000 } });
    // Another channel's notice first: its event shows the workspace's events come.
    await live(bot, slackChannel('C0OTHER'), 'other-project');
    await bot.offer(supporter('o1', clock.now(), 'other-project'));
    await sightedTs(bot, sighted, bot.fake.messages.get('C0OTHER')?.[0]?.ts);
    await live(bot);
    await bot.dailyThreads.set(campaign, true);
    const all = () => bot.fake.messages.get('C0CHAN') ?? [];
    const parents = () => all().filter((m) => m.thread_ts === undefined);
    /** Supporter `id`'s post taken, answered and landed 35 s later; waits until `removals` late copies are gone. */
    const landsLateAndGoes = async (id: string, removals: number, what: string) => {
      bot.fake.fail('chat.postMessage', lateAnswer(35_000), 1);
      await bot.offer(supporter(id, clock.now()));
      await runFor(bot, 40_000, 1_000);
      await bot.fake.waitFor(() => bot.fake.deleted.length === removals, what);
      await bot.settle();
    };
    // The day's parent is the first post: taken, answered and landed 35 s later.
    await landsLateAndGoes('d1', 1, 'the late parent to be removed');
    expect(parents()).toHaveLength(1);
    const parent = parents()[0]!;
    expect(
      all()
        .filter((m) => m.thread_ts === parent.ts)
        .map((m) => eventIdOf(m)),
    ).toEqual(['d1']);
    // A reply in the thread: taken, answered and landed 35 s later.
    await landsLateAndGoes('d2', 2, 'the late reply to be removed');
    expect(parents()).toHaveLength(1);
    expect(
      all()
        .filter((m) => m.thread_ts === parent.ts)
        .map((m) => eventIdOf(m)),
    ).toEqual(['d1', 'd2']);
    expect(removed).toHaveLength(2);
  });
});

describe("Slack's events settle a channel's doubts without a look", () => {
  it('landed posts by their events, posts that never landed by the events passing their time; no look', async () => {
    const clock = new ManualClock(t0);
    const { resolved, sighted, observer } = recorder();
    const bot = await startWitnessed(clock, { observer });
    const channels = ['C0ONE', 'C0TWO', 'C0THREE', 'C0FOUR', 'C0FIVE'];
    for (const id of channels) await live(bot, slackChannel(id));
    await bot.offer(supporter('s0', clock.now()));
    await sightedTs(bot, sighted, bot.fake.messages.get('C0FIVE')?.[0]?.ts);
    // Three posts land but their answers never come; then two never land at all.
    bot.fake.fail('chat.postMessage', { afterPost: 'hang' }, 3);
    await bot.offer(supporter('s1', clock.now()));
    bot.fake.fail('chat.postMessage', { beforePost: 'hang' }, 2);
    await bot.offer(supporter('s2', clock.now()));
    await bot.fake.waitFor(() => resolved.length === 3, 'the three landed posts decided by their events');
    expect(resolved).toEqual(['s1:found', 's1:found', 's1:found']);
    // Later notices land past where the two lost posts would have; their events decide those.
    await runFor(bot, lookAfterMs - 4_000, 1_000);
    await bot.offer(supporter('s3', clock.now()));
    const s3 = (bot.fake.messages.get('C0FIVE') ?? []).find((m) =>
      JSON.stringify(m.blocks).includes('Fan s3'),
    );
    await sightedTs(bot, sighted, s3?.ts);
    // The doubts woke when the events passed their time (on this test's clock: the next step).
    await bot.advance(1);
    expect(resolved).toHaveLength(5);
    expect(resolved.slice(3)).toEqual(['s2:absent', 's2:absent']);
    for (const id of channels) expect(eventIdsIn(bot.fake, id).sort(), id).toEqual(['s0', 's1', 's2', 's3']);
    expect(bot.fake.callsTo('conversations.history')).toHaveLength(0);
  });
});

describe('Slack: a notice held for the catch-up that lands late after all', () => {
  /** The channel's messages that name `name`. */
  const naming = (fake: FakeSlack, name: string) =>
    (fake.messages.get('C0CHAN') ?? []).filter((m) => JSON.stringify(m.blocks).includes(name));

  /**
   * The witness live (s0 posted and its event seen), then s1 taken but answered (and landed) only 90 s later;
   * the bot is removed from the channel after the look that decides s1 absent (a look while it is out is
   * refused and decides nothing), before its repeat, which is refused. Returns when s1 was sent.
   */
  async function s1LateWhileRemoved(
    bot: SlackPipeline,
    clock: ManualClock,
    { sighted, resolved }: { readonly sighted: readonly string[]; readonly resolved: readonly string[] },
  ) {
    await live(bot);
    await bot.offer(supporter('s0', clock.now()));
    await sightedTs(bot, sighted, bot.fake.messages.get('C0CHAN')?.[0]?.ts);
    bot.fake.fail('chat.postMessage', lateAnswer(90_000), 1);
    const sentAt = clock.now();
    await bot.offer(supporter('s1', sentAt));
    await bot.fake.waitFor(() => bot.fake.callsTo('chat.postMessage').length === 2, "s1's first post");
    bot.fake.fail('chat.postMessage', { error: 'not_in_channel' }, 1, 'C0CHAN');
    while (resolved.length === 0 && clock.now() < sentAt + 60_000) await bot.advance(1_000);
    bot.fake.setChannel({ id: 'C0CHAN', isMember: false });
    return sentAt;
  }

  it('decided absent, its repeat refused (not_in_channel) and held; the original lands 90 s late: it stands alone, the catch-up names only the others', async () => {
    const clock = new ManualClock(t0);
    const { resolved, sighted, observer } = recorder();
    const bot = await startWitnessed(clock, { observer });
    const sentAt = await s1LateWhileRemoved(bot, clock, { sighted, resolved });
    await runFor(bot, 60_000, 1_000);
    expect(resolved).toEqual(['s1:absent']);
    expect(bot.fake.callsTo('chat.postMessage').at(-1)?.outcome).toBe('not_in_channel');
    await bot.offer(supporter('s2', clock.now()));
    await runFor(bot, sentAt + 90_000 - clock.now(), 1_000);
    // The original lands, and its event reaches the bot while the catch-up still holds the name.
    const landed = naming(bot.fake, 'Fan s1')[0];
    expect(landed).toBeDefined();
    await sightedTs(bot, sighted, landed?.ts);
    // Invited back: the catch-up goes out.
    bot.fake.setChannel({ id: 'C0CHAN', isMember: true });
    await runFor(bot, 5 * 60_000, 5_000);
    expect(naming(bot.fake, 'Fan s2')).toHaveLength(1);
    expect(naming(bot.fake, 'Fan s1')).toHaveLength(1);
  });

  it('the catch-up went out first, naming it: the original landing 90 s late is removed as it lands', async () => {
    const clock = new ManualClock(t0);
    const { resolved, removed, sighted, observer } = recorder();
    const bot = await startWitnessed(clock, { observer });
    const sentAt = await s1LateWhileRemoved(bot, clock, { sighted, resolved });
    await runFor(bot, 30_000, 1_000);
    expect(resolved).toEqual(['s1:absent']);
    expect(bot.fake.callsTo('chat.postMessage').at(-1)?.outcome).toBe('not_in_channel');
    // Invited back at once: the catch-up naming s1 goes out before the original lands.
    bot.fake.setChannel({ id: 'C0CHAN', isMember: true });
    await runFor(bot, sentAt + 89_000 - clock.now(), 1_000);
    expect(naming(bot.fake, 'Fan s1')).toHaveLength(1);
    await bot.advance(1_000);
    await bot.fake.waitFor(() => bot.fake.deleted.length === 1, 'the late original to be removed');
    await bot.settle();
    expect(naming(bot.fake, 'Fan s1')).toHaveLength(1);
    expect(removed).toEqual(['s1:sighted']);
    expect(Number(bot.fake.deleted[0]?.message.ts) * 1000).toBe(sentAt + 90_000);
  });
});
