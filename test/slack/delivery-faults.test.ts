/**
 * Issue 21 on Slack, with the REAL Web API client against the fake Slack and the real
 * delivery pipeline: HTTP 500s from chat.postMessage never hold a channel's later
 * notices longer than 30 s, and every notice still lands exactly once (the doubtful
 * ones decided by a look, one conversations.history call a minute per workspace);
 * a 429 with Retry-After pauses that channel, and only that channel, for that long.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryObserver } from '../../src/delivery/index.js';
import { runFor } from '../delivery/pipeline-harness.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { eventIdsIn, type SlackPipeline, slackBotPerTest, slackChannel } from './slack-pipeline.js';

type Posted = Parameters<NonNullable<DeliveryObserver['posted']>>[0];

const campaign = slackChannel('C0CHAN');
const team = slackChannel('C0TEAM');
const startBot = slackBotPerTest();

async function start(clock: ManualClock, observer: DeliveryObserver = {}) {
  const bot = await startBot(clock, { observer });
  return { fake: bot.fake, bot };
}

async function watchLive(h: SlackPipeline, channel = campaign) {
  await h.subscribe(channel, ['supporters']);
  await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
}

const supporter = (n: number, at: number) =>
  buildEvent.supporter({ id: `s${n}`, displayName: `Fan ${n}`, occurredAt: at, detectedAt: at });

describe('Slack: HTTP 500s from chat.postMessage never stall the channel', () => {
  it.each([3, 6])(
    '%i 500s: later notices wait at most 30 s, every notice lands exactly once',
    async (failures) => {
      const clock = new ManualClock(t0);
      const posted: Posted[] = [];
      const { fake, bot: h } = await start(clock, { posted: (info) => posted.push(info) });
      await watchLive(h);
      fake.fail('chat.postMessage', { status: 500 }, failures);

      // A supporter every 5 s for two minutes, while Slack answers the first posts with 500s.
      const count = 24;
      for (let n = 1; n <= count; n += 1) {
        await h.offer(supporter(n, clock.now()));
        await runFor(h, 5_000);
      }
      // Then until the last doubt is decided (a look a minute, a failed repeat decided at the next).
      await runFor(h, 4 * 60_000, 5_000);

      const ids = eventIdsIn(fake, 'C0CHAN');
      expect([...ids].sort()).toEqual(Array.from({ length: count }, (_, i) => `s${i + 1}`).sort());
      expect(fake.duplicateEventIds('C0CHAN')).toEqual([]);
      expect(fake.callsTo('chat.postMessage').filter((c) => c.outcome === 'http 500')).toHaveLength(failures);
      // Nothing waited behind another notice's fault for more than 30 s.
      expect(posted).toHaveLength(count);
      expect(Math.max(...posted.map((p) => p.waitedBehindFaultsMs))).toBeLessThanOrEqual(30_000);
      for (const p of posted.filter((p) => !p.late)) expect(p.latencyMs).toBeLessThanOrEqual(30_000);
      // The ones that failed were looked for, within the budget, and posted late (saying when).
      const late = posted.filter((p) => p.late);
      expect(late.length).toBeGreaterThan(0);
      expect(Math.max(...late.map((p) => p.latencyMs))).toBeLessThanOrEqual(3 * 60_000);
      const looks = fake.callsTo('conversations.history');
      expect(looks.length).toBeGreaterThan(0);
      expect(looks.every((c) => c.outcome === 'ok')).toBe(true);
      const lateIds = new Set(late.map((p) => p.id));
      for (const call of fake.callsTo('chat.postMessage').filter((c) => c.outcome === 'ok')) {
        const key = String(
          (call.args['metadata'] as { event_payload: { event_id: string } }).event_payload.event_id,
        );
        if (lateIds.has(key.split('@')[0] ?? '')) expect(String(call.args['text'])).toContain('Posted late');
      }
    },
  );
});

describe("Slack: a 429's Retry-After pauses only the channel it came from", () => {
  it('the limited channel waits exactly the Retry-After, then posts in order; another channel goes on at once', async () => {
    const clock = new ManualClock(t0);
    const { fake, bot: h } = await start(clock);
    await watchLive(h, campaign);
    fake.fail('chat.postMessage', { status: 429, retryAfterSeconds: 10 }, 1);
    await h.offer(supporter(1, clock.now()));
    const toCampaign = () => fake.callsTo('chat.postMessage').filter((c) => c.args['channel'] === 'C0CHAN');
    expect(toCampaign().map((c) => c.outcome)).toEqual(['http 429']);

    // A second channel of the same workspace, and a second notice for both.
    await watchLive(h, team);
    await h.offer(supporter(2, clock.now()));
    expect(eventIdsIn(fake, 'C0TEAM')).toEqual(['s2']);
    expect(toCampaign()).toHaveLength(1);

    await runFor(h, 9_999, 3_333);
    expect(toCampaign()).toHaveLength(1);
    await h.advance(1);
    expect(eventIdsIn(fake, 'C0CHAN')).toEqual(['s1', 's2']);
    expect(toCampaign().map((c) => c.outcome)).toEqual(['http 429', 'ok', 'ok']);
  });

  it('the poster obeys the wait itself: posts to that channel refused until it ends, other channels and looks not', async () => {
    const clock = new ManualClock(t0);
    const { fake, bot: h } = await start(clock);
    const { poster } = h.adapter;
    fake.fail('chat.postMessage', { status: 429, retryAfterSeconds: 10 }, 1);
    const first = await poster.post(campaign, { text: 'a' }, 'evt:a').catch((e: unknown) => e);
    expect(first).toMatchObject({ retryAfterMs: 10_000 });
    clock.advance(4_100);
    const early = await poster.post(campaign, { text: 'a' }, 'evt:a').catch((e: unknown) => e);
    expect(early).toMatchObject({ name: 'DeliveryNotPostedError', retryAfterMs: 5_900 });
    await poster.post(team, { text: 'b' }, 'evt:b');
    const look = await poster.doubt?.look(
      campaign,
      { from: clock.now() - 60_000, to: clock.now(), wanted: [{ key: 'evt:a', message: { text: 'a' } }] },
      undefined,
    );
    expect(look?.found.size).toBe(0);
    expect(fake.calls.map((c) => `${c.method} ${c.outcome}`)).toEqual([
      'chat.postMessage http 429',
      'chat.postMessage ok',
      'auth.test ok',
      'conversations.history ok',
    ]);
    clock.advance(5_900);
    await poster.post(campaign, { text: 'a' }, 'evt:a');
    expect(eventIdsIn(fake, 'C0CHAN')).toEqual(['evt:a']);
  });
});
