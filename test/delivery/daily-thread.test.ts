import { describe, expect, test } from 'vitest';
import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { ChannelUnavailableError } from '../../src/delivery/channel-unavailable-error.js';
import { createDeliveryLedger } from '../../src/delivery/delivery-ledger.js';
import type { ChannelPoster, PostReceipt, ThreadTarget } from '../../src/delivery/ports.js';
import { channelKey } from '../../src/domain/channels.js';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { type KeyValueStore, memoryStore, namespaced } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { allText } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const minute = 60_000;

/** A poster fake with threads, like a chat platform: names messages, opens threads, records edits. */
class ThreadingPoster implements ChannelPoster {
  readonly posts: { message: NeutralMessage; id: string; thread: ThreadTarget | undefined }[] = [];
  readonly edits: { messageId: string; message: NeutralMessage }[] = [];
  readonly threadsStarted: { parent: string; name: string }[] = [];
  readonly threads = 'start-thread' as const;
  #next = 0;
  constructor(readonly platform: ChannelRef['platform']) {}
  async post(
    _channel: ChannelRef,
    message: NeutralMessage,
    _key: string,
    thread?: ThreadTarget,
  ): Promise<PostReceipt> {
    this.#next += 1;
    const id = `m${this.#next}`;
    this.posts.push({ message, id, thread });
    return { messageId: thread?.threadId ? `${thread.threadId}/${id}` : id };
  }
  async edit(_channel: ChannelRef, messageId: string, message: NeutralMessage): Promise<void> {
    this.edits.push({ messageId, message });
  }
  async startThread(_channel: ChannelRef, parent: string, name: string): Promise<ThreadTarget> {
    this.threadsStarted.push({ parent, name });
    return { parentMessageId: parent, threadId: `t-${parent}` };
  }
  get inChannel() {
    return this.posts.filter((p) => !p.thread);
  }
  get inThread() {
    return this.posts.filter((p) => p.thread);
  }
}

async function setup(
  options: {
    pacing?: 'live' | 'auto';
    goal?: number;
    store?: KeyValueStore;
    clock?: ManualClock;
    poster?: ThreadingPoster;
  } = {},
) {
  const poster = options.poster ?? new ThreadingPoster('discord');
  const h = await startPipeline({
    posters: [poster],
    ...(options.store ? { store: options.store } : {}),
    clock: options.clock ?? new ManualClock(t0),
    overrides: { goalOf: async () => options.goal ?? 20_000, timeZone: 'Europe/Berlin' },
  });
  await h.subscribe(d1, ['supporters', 'milestones']);
  if ((options.pacing ?? 'live') === 'live') await h.pacing.setKind(d1, 'supporters', { mode: 'live' });
  await h.dailyThreads.set(d1, true);
  return { ...h, poster };
}

describe('daily thread', () => {
  test('one parent a day in the channel, every supporter a reply in its thread, the parent edited with the running figures', async () => {
    const f = await setup();
    const supporter = (n: number) =>
      buildEvent.supporter({
        id: `solar-kiosk:supporter:k${n}`,
        displayName: `Fan ${n}`,
        supporterCount: 100 + n,
        fundingTotal: 10_000 + n * 100,
        detectedAt: f.clock.now(),
      });
    await f.offer(supporter(1));
    expect(f.poster.inChannel).toHaveLength(1);
    const parent = f.poster.inChannel[0]!;
    expect(parent.message.title).toBe('🎉 Supporters on Jan 1, 2026');
    expect(allText(parent.message)).toContain('1 new supporter today · supporter count 101 · total €10,100');
    expect(parent.message.progress?.goal).toBe(20_000);
    expect(f.poster.threadsStarted).toEqual([
      { parent: parent.id, name: 'Supporters 2026-01-01 · solar-kiosk' },
    ]);
    expect(f.poster.inThread.map((p) => p.message.title)).toEqual(['🎉 New supporter: Fan 1']);
    expect(f.poster.inThread[0]?.thread).toEqual({ parentMessageId: parent.id, threadId: `t-${parent.id}` });

    // Figures already shown: nothing to edit.
    await f.advance(minute);
    expect(f.poster.edits).toHaveLength(0);

    for (let n = 2; n <= 4; n += 1) await f.offer(supporter(n));
    expect(f.poster.inChannel).toHaveLength(1);
    expect(f.poster.inThread).toHaveLength(4);
    // The parent is edited at most once per interval (30 s), with the day's figures.
    await f.advance(30_000);
    await f.advance(30_000);
    expect(f.poster.edits).toHaveLength(1);
    const edited = f.poster.edits[0]!;
    expect(edited.messageId).toBe(parent.id);
    expect(allText(edited.message)).toContain('4 new supporters today · supporter count 104 · total €10,400');
    expect(allText(edited.message)).toContain('Latest: Fan 4');

    // Other kinds stay in the channel.
    await f.offer(buildEvent.milestone({ id: 'solar-kiosk:milestone:50' }));
    expect(f.poster.inChannel).toHaveLength(2);
  });

  test("a day whose notices carried no figures: the parent shows the project's as the engine last read them", async () => {
    let figures = { supporterCount: 41, fundingTotal: 5_200, readAt: t0 };
    const poster = new ThreadingPoster('discord');
    const h = await startPipeline({
      posters: [poster],
      clock: new ManualClock(t0),
      overrides: {
        goalOf: async () => 20_000,
        figuresOf: async () => figures,
        timeZone: 'Europe/Berlin',
      },
    });
    await h.subscribe(d1, ['supporters']);
    await h.pacing.setKind(d1, 'supporters', { mode: 'live' });
    await h.dailyThreads.set(d1, true);
    // The supporter's cycle did not re-read the project: its event carries no count or total.
    await h.offer(
      buildEvent.supporter({
        id: 'solar-kiosk:supporter:k1',
        displayName: 'Fan 1',
        supporterCount: null,
        fundingTotal: null,
        detectedAt: h.clock.now(),
      }),
    );
    const [parent] = poster.posts.filter((p) => !p.thread);
    expect(allText(parent!.message)).toContain('supporter count 41 · total €5,200');
    // The engine reads the project again: the next edit follows it.
    figures = { supporterCount: 42, fundingTotal: 5_300, readAt: t0 + 20_000 };
    await h.advance(30_000);
    await h.advance(30_000);
    expect(poster.edits).toHaveLength(1);
    expect(allText(poster.edits[0]!.message)).toContain('supporter count 42 · total €5,300');
  });

  test('a restart keeps the day: the same parent and thread from the store, a retried notice counted once', async () => {
    const store = memoryStore();
    const clock = new ManualClock(t0);
    const poster = new ThreadingPoster('discord');
    const first = await setup({ store, clock, poster });
    const s1 = buildEvent.supporter({
      id: 'k1',
      displayName: 'Ada',
      supporterCount: 11,
      detectedAt: clock.now(),
    });
    await first.offer(s1);
    await first.stop();
    const after = await setup({ store, clock, poster });
    await after.offer(s1); // the outbox offering again after a crash
    await after.offer(
      buildEvent.supporter({ id: 'k2', displayName: 'Bob', supporterCount: 12, detectedAt: clock.now() }),
    );
    await after.advance(minute);
    expect(poster.inChannel).toHaveLength(1);
    expect(poster.threadsStarted).toHaveLength(1);
    expect(poster.inThread.map((p) => p.message.title)).toEqual([
      '🎉 New supporter: Ada',
      '🎉 New supporter: Bob',
    ]);
    expect(poster.edits).toHaveLength(1);
    expect(allText(poster.edits[0]!.message)).toContain('2 new supporters today · supporter count 12');
  });

  test("the project's local day: a new parent after midnight in the project's zone", async () => {
    const f = await setup();
    // 22:30 UTC on Jan 1 is 23:30 in Berlin; an hour later it is Jan 2 there.
    f.clock.set(Date.UTC(2026, 0, 1, 22, 30));
    await f.offer(buildEvent.supporter({ id: 'late', detectedAt: f.clock.now() }));
    f.clock.set(Date.UTC(2026, 0, 1, 23, 30));
    await f.offer(buildEvent.supporter({ id: 'early', detectedAt: f.clock.now() }));
    expect(f.poster.inChannel.map((p) => p.message.title)).toEqual([
      '🎉 Supporters on Jan 1, 2026',
      '🎉 Supporters on Jan 2, 2026',
    ]);
    expect(f.poster.threadsStarted).toHaveLength(2);
    expect(f.poster.inThread.map((p) => p.thread?.parentMessageId)).toEqual(
      f.poster.inChannel.map((p) => p.id),
    );
  });

  test('a busy day: batches are replies too, the channel still gets one message', async () => {
    const f = await setup({ pacing: 'auto' });
    for (let n = 1; n <= 12; n += 1) {
      await f.offer(
        buildEvent.supporter({
          id: `k${n}`,
          displayName: `Fan ${n}`,
          supporterCount: 100 + n,
          fundingTotal: 5_000 + n,
          detectedAt: f.clock.now(),
        }),
      );
    }
    await f.advance(10 * minute);
    await f.advance(minute);
    expect(f.poster.inChannel).toHaveLength(1);
    const replies = f.poster.inThread.map((p) => p.message.title);
    expect(replies).toHaveLength(5); // 4 live, then one batch of 8
    expect(replies[4]).toMatch(/^🎉 8 new supporters since/);
    const edits = f.poster.edits;
    expect(allText(edits[edits.length - 1]!.message)).toContain(
      '12 new supporters today · supporter count 112',
    );
  });

  test('German parent; turning the thread off posts in the channel again', async () => {
    const f = await setup();
    await f.settings.setLocale(d1, 'channel', 'de');
    await f.offer(buildEvent.supporter({ id: 'k1', displayName: 'Ada', detectedAt: f.clock.now() }));
    const parent = f.poster.inChannel[0]!;
    expect(parent.message.title).toBe('🎉 Unterstützungen am 01.01.2026');
    expect(allText(parent.message)).toContain('1 neue Unterstützung heute');
    expect(allText(parent.message)).toContain('Alle Unterstützungen des Tages stehen im Thread.');
    expect(f.poster.threadsStarted[0]?.name).toBe('Unterstützungen 2026-01-01 · solar-kiosk');
    await f.dailyThreads.set(d1, false);
    await f.offer(buildEvent.supporter({ id: 'k2', displayName: 'Bob', detectedAt: f.clock.now() }));
    expect(f.poster.inChannel).toHaveLength(2);
    expect(f.poster.inThread).toHaveLength(1);
  });

  test('a support that drops out is taken out of the day once: its reply edited, the parent counts one less', async () => {
    const store = memoryStore();
    const clock = new ManualClock(t0);
    const poster = new ThreadingPoster('discord');
    const f = await setup({ store, clock, poster });
    for (const id of ['k1', 'k2', 'k3']) {
      await f.offer(
        buildEvent.supporter({ id, displayName: id, supporterCount: 10, detectedAt: clock.now() }),
      );
    }
    await f.advance(minute);
    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'drop:k2',
      project: 'solar-kiosk',
      occurredAt: clock.now(),
      detectedAt: clock.now(),
      originalEventId: 'k2',
      entryKey: 'k2',
      displayName: 'k2',
    };
    await f.offer(drop);
    await f.stop();
    const again = await setup({ store, clock, poster });
    await again.offer(drop); // offered again after a restart: subtracted once
    const reply = poster.inThread[1]!;
    expect(
      poster.edits.filter((e) => e.messageId === `t-${poster.inChannel[0]!.id}/${reply.id}`),
    ).toHaveLength(1);
    await again.advance(minute);
    const last = poster.edits[poster.edits.length - 1]!;
    expect(last.messageId).toBe(poster.inChannel[0]!.id);
    expect(allText(last.message)).toContain('2 new supporters today');
  });

  test('a channel where the bot may not open threads gets its notices in the channel, not held back', async () => {
    const f = await setup();
    f.poster.startThread = async () => {
      throw new ChannelUnavailableError(d1, 'no-permission');
    };
    await f.offer(buildEvent.supporter({ id: 'k1', displayName: 'Ada', detectedAt: f.clock.now() }));
    await f.offer(buildEvent.supporter({ id: 'k2', displayName: 'Bob', detectedAt: f.clock.now() }));
    expect(f.poster.inThread).toHaveLength(0);
    expect(f.poster.inChannel.map((p) => p.message.title)).toEqual([
      '🎉 Supporters on Jan 1, 2026',
      '🎉 New supporter: Ada',
      '🎉 New supporter: Bob',
    ]);
  });

  test('a parent refused for access is not in doubt: nothing was posted, the next try posts it without a look', async () => {
    const store = memoryStore();
    const f = await setup({ store });
    const post = f.poster.post.bind(f.poster);
    let refusals = 1;
    f.poster.post = async (channel, message, key, thread) => {
      if (refusals > 0 && message.title?.startsWith('🎉 Supporters on')) {
        refusals -= 1;
        throw new ChannelUnavailableError(d1, 'not-member');
      }
      return post(channel, message, key, thread);
    };
    await f.offer(buildEvent.supporter({ id: 'k1', displayName: 'Ada', detectedAt: f.clock.now() }));
    const ledger = createDeliveryLedger(namespaced(store, 'deliveries/'), {
      clock: f.clock,
      prefix: 'notices/delivered/',
    });
    const parent = { id: `thread-parent:solar-kiosk:2026-01-01:${channelKey(d1)}`, channel: d1 };
    expect((await ledger.get(parent))?.state).toBe('failing');
  });
});
