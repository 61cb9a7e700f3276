import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { DeliveryNotPostedError } from '../../src/delivery/delivery-not-posted-error.js';
import { createNoticeRouter, NoticeDeliveryError } from '../../src/delivery/notice-router.js';
import type { ChannelPoster, PostReceipt } from '../../src/delivery/ports.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { RecordingLogger } from '../support/recording-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

/**
 * A channel with a memory: `landed` holds what really reached it. Each post can be
 * scripted to land and then fail (the answer lost: in doubt), to fail before
 * landing, or to be refused (nothing posted).
 */
class ScriptedChannel implements ChannelPoster {
  readonly platform = 'slack' as const;
  readonly inDoubtSettleMs = 30_000;
  readonly landed: { key: string; id: string }[] = [];
  readonly posts: string[] = [];
  readonly looks: string[] = [];
  script: ('ok' | 'land-then-timeout' | 'timeout-before-landing' | 'refused')[] = [];
  lookThrows: Error | undefined;

  async post(_c: ChannelRef, _m: unknown, key: string): Promise<PostReceipt> {
    this.posts.push(key);
    const step = this.script.shift() ?? 'ok';
    if (step === 'refused') throw new DeliveryNotPostedError('ratelimited');
    if (step === 'timeout-before-landing') throw new Error('timeout');
    const id = `ts-${this.landed.length + 1}`;
    this.landed.push({ key, id });
    if (step === 'land-then-timeout') throw new Error('timeout after the message landed');
    return { messageId: id };
  }

  async findPosted(_c: ChannelRef, key: string): Promise<PostReceipt | undefined> {
    this.looks.push(key);
    if (this.lookThrows) throw this.lookThrows;
    const hit = this.landed.find((l) => l.key === key);
    return hit ? { messageId: hit.id } : undefined;
  }
}

async function setup() {
  const fixture = createCoreFixture();
  const slack = new ScriptedChannel();
  const logger = new RecordingLogger();
  const resolved: string[] = [];
  const options = {
    core: fixture.core,
    subscriptions: fixture.subscriptions,
    posters: [slack],
    store: fixture.store,
    logger,
    clock: fixture.clock,
    onDoubtResolved: (_e: unknown, _c: ChannelRef, outcome: string) => resolved.push(outcome),
  };
  await fixture.subscriptions.subscribe(s1, 'solar-kiosk', ['supporters'], 'U');
  return { ...fixture, slack, logger, resolved, router: createNoticeRouter(options), options };
}

describe('notice router: deliveries in doubt', () => {
  test('a post that landed but whose answer was lost is found by looking, never posted again', async () => {
    const f = await setup();
    f.slack.script = ['land-then-timeout'];
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);

    // While the attempt may still land: no look, no post.
    f.clock.advance(10_000);
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(f.slack.looks).toEqual([]);
    expect(f.slack.posts).toHaveLength(1);

    f.clock.advance(25_000);
    await f.router.deliver(event);
    expect(f.slack.looks).toHaveLength(1);
    expect(f.slack.posts).toHaveLength(1);
    expect(f.slack.landed).toHaveLength(1);
    expect(f.resolved).toEqual(['found']);
    await f.router.deliver(event);
    expect(f.slack.looks).toHaveLength(1);
  });

  test('a post that never landed is posted once the look shows it is absent', async () => {
    const f = await setup();
    f.slack.script = ['timeout-before-landing'];
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    f.clock.advance(31_000);
    await f.router.deliver(event);
    expect(f.slack.posts).toHaveLength(2);
    expect(f.slack.landed).toHaveLength(1);
    expect(f.resolved).toEqual(['absent']);
  });

  test('an answer proving nothing was posted clears the attempt: the retry posts without looking', async () => {
    const f = await setup();
    f.slack.script = ['refused'];
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    await f.router.deliver(event);
    expect(f.slack.looks).toEqual([]);
    expect(f.slack.landed).toHaveLength(1);
  });

  test('when the look cannot run yet, the event waits: nothing is posted blind', async () => {
    const f = await setup();
    f.slack.script = ['land-then-timeout'];
    f.slack.lookThrows = new Error('conversations.history rate limited');
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    f.clock.advance(31_000);
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    expect(f.slack.posts).toHaveLength(1);
    f.slack.lookThrows = undefined;
    f.clock.advance(60_000);
    await f.router.deliver(event);
    expect(f.slack.posts).toHaveLength(1);
    expect(f.slack.landed).toHaveLength(1);
  });

  test('a restarted router (new instance, same store) resolves the doubt the same way', async () => {
    const f = await setup();
    f.slack.script = ['land-then-timeout'];
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    const restarted = createNoticeRouter(f.options);
    f.clock.advance(31_000);
    await restarted.deliver(event);
    expect(f.slack.landed).toHaveLength(1);
    expect(f.slack.posts).toHaveLength(1);
  });

  test('a second delivery of the same event while the first is posting waits instead of posting', async () => {
    const f = await setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const posting = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const post = f.slack.post.bind(f.slack);
    f.slack.post = async (...args) => {
      entered();
      await gate;
      return post(...args);
    };
    const event = buildEvent.supporter();
    const first = f.router.deliver(event);
    await posting;
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    release();
    await first;
    expect(f.slack.landed).toHaveLength(1);
  });

  test('a delivery that stays in doubt for 30 minutes is given up, not posted blind', async () => {
    const f = await setup();
    f.slack.script = ['land-then-timeout'];
    f.slack.lookThrows = new Error('history unavailable');
    const event = buildEvent.supporter();
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    f.clock.advance(30 * 60_000);
    await f.router.deliver(event);
    expect(f.slack.posts).toHaveLength(1);
    expect(f.logger.records.some((r) => r.level === 'error' && r.message.includes('given up'))).toBe(true);
  });
});
