import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const d2: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D2' };
const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

async function setup(store?: KeyValueStore) {
  const clock = new ManualClock(t0);
  const discord = new ScriptedPoster('discord', clock);
  const slack = new ScriptedPoster('slack', clock);
  const h = await startPipeline({ posters: [discord, slack], clock, ...(store ? { store } : {}) });
  // Live pacing: these tests are about routing, not about batches.
  for (const channel of [d1, d2, s1]) await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
  return { ...h, discord, slack };
}

describe('delivery pipeline: routing', () => {
  it('posts an event only to the channels subscribed to its kind for its project', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    await h.subscribe(d2, ['wall']);
    await h.subscribe(s1, ['supporters'], 'other-project');
    await h.offer(buildEvent.supporter());
    expect(h.discord.messages.map((m) => m.channel.channelId)).toEqual(['D1']);
    expect(h.slack.messages).toEqual([]);
    await h.offer(buildEvent.wallPost());
    expect(h.discord.in('D2')).toHaveLength(1);
  });

  it("renders in each channel's language and passes `<event id>@<channel>` as the idempotency key", async () => {
    const h = await setup();
    await h.subscribe(d1, ['milestones']);
    await h.subscribe(s1, ['milestones']);
    await h.settings.setLocale(s1, 'channel', 'de');
    const event = buildEvent.milestone();
    await h.offer(event);
    expect(h.discord.messages[0]?.message.title).toBe('🏁 50% of the funding goal reached');
    expect(h.slack.messages[0]?.message.title).toBe('🏁 50 % des Finanzierungsziels erreicht');
    expect(h.discord.messages[0]?.key).toBe(`${event.id}@discord:G1:D1`);
    expect(h.slack.messages[0]?.key).toBe(`${event.id}@slack:T1:S1`);
  });

  it('a subscription made on another replica is seen at the next offer (one stamp read), not after a restart', async () => {
    const store = memoryStore();
    const h = await setup(store);
    await h.subscribe(d1, ['supporters']);
    await h.offer(buildEvent.supporter({ id: 'first' }));
    // Another process writes through its own stamped view of the same store.
    const other = await startPipeline({ posters: [], store, clock: h.clock });
    await other.subscribe(d2, ['supporters']);
    await h.pacing.setKind(d2, 'supporters', { mode: 'live' });
    await h.offer(buildEvent.supporter({ id: 'second' }));
    expect(h.discord.in('D2').map((m) => m.key)).toEqual(['second@discord:G1:D2']);
  });
});

describe('delivery pipeline: the outbox contract', () => {
  it('reports an event done only once every channel got it; a channel without subscribers is done at once', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    await h.subscribe(s1, ['supporters']);
    h.slack.fail('S1', { kind: 'refuse' });
    const event = buildEvent.supporter();
    // The Discord channel got it, the Slack one is retried with backoff: not done yet.
    expect(await h.offer(event)).toEqual([]);
    expect(h.discord.in('D1')).toHaveLength(1);
    await h.advance(10_000);
    expect(h.slack.in('S1')).toHaveLength(1);
    expect(await h.offer(event)).toEqual([event.id]);
    expect(await h.offer(buildEvent.wallPost({ project: 'nobody-watches' }))).toEqual(['wall:501']);
  });

  it('an event offered again (the outbox after a crash) is never posted twice: the ledger says posted', async () => {
    const store = memoryStore();
    const first = await setup(store);
    await first.subscribe(d1, ['supporters']);
    const event = buildEvent.supporter();
    await first.offer(event);
    await first.stop();
    const second = await setup(store);
    expect(await second.offer(event)).toEqual([event.id]);
    expect(second.discord.messages).toEqual([]);
    expect(first.discord.in('D1')).toHaveLength(1);
  });

  it('keeps each channel in order: a project’s notices reach a channel in the order they were offered', async () => {
    const h = await setup();
    await h.subscribe(d1, ['supporters']);
    const events = ['a', 'b', 'c', 'd'].map((n) => buildEvent.supporter({ id: `s-${n}`, displayName: n }));
    await h.offer(...events);
    expect(h.discord.in('D1').map((m) => m.message.title)).toEqual(
      events.map((e) => `🎉 New supporter: ${e.displayName}`),
    );
  });

  it('a platform without a running adapter skips the notice with a warning, and the event is done', async () => {
    const clock = new ManualClock(t0);
    const h = await startPipeline({ posters: [], clock });
    await h.subscribe(d1, ['supporters']);
    await h.pacing.setKind(d1, 'supporters', { mode: 'live' });
    expect(await h.offer(buildEvent.supporter())).toEqual([buildEvent.supporter().id]);
    expect(h.logger.records.some((r) => r.message.includes('no poster for this platform'))).toBe(true);
  });
});
