import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { ChannelUnavailableError } from '../../src/delivery/channel-unavailable-error.js';
import { createNoticeRouter, NoticeDeliveryError } from '../../src/delivery/notice-router.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { RecordingLogger, RecordingPoster } from '../support/recording-poster.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const d2: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D2' };
const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };

function setup() {
  const fixture = createCoreFixture();
  const discord = new RecordingPoster('discord');
  const slack = new RecordingPoster('slack');
  const logger = new RecordingLogger();
  const router = createNoticeRouter({
    core: fixture.core,
    subscriptions: fixture.subscriptions,
    posters: [discord, slack],
    store: fixture.store,
    logger,
    clock: fixture.clock,
  });
  return { ...fixture, discord, slack, logger, router };
}

describe('notice router', () => {
  test('routes an event only to channels subscribed to its kind for its project', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    await f.subscriptions.subscribe(d2, 'solar-kiosk', ['wall'], 'U');
    await f.subscriptions.subscribe(s1, 'other-project', ['supporters'], 'U');
    await f.router.deliver(buildEvent.supporter());
    expect(f.discord.posts.map((p) => p.channel.channelId)).toEqual(['D1']);
    expect(f.slack.posts).toEqual([]);
    await f.router.deliver(buildEvent.wallPost());
    expect(f.discord.postsTo('D2')).toHaveLength(1);
  });

  test("renders in each channel's locale and passes event id + channel as idempotency key", async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['milestones'], 'U');
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['milestones'], 'U');
    await f.settings.setLocale(s1, 'channel', 'de');
    const event = buildEvent.milestone();
    await f.router.deliver(event);
    expect(f.discord.posts[0]?.message.title).toBe('🏁 50% of the funding goal reached');
    expect(f.slack.posts[0]?.message.title).toBe('🏁 50 % des Finanzierungsziels erreicht');
    expect(f.discord.posts[0]?.idempotencyKey).toBe(`${event.id}@discord:G1:D1`);
    expect(f.slack.posts[0]?.idempotencyKey).toBe(`${event.id}@slack:T1:S1`);
  });

  test('a retry after a partial failure posts only to the channels that did not get it', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['blog'], 'U');
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['blog'], 'U');
    f.slack.failFor('S1', () => new Error('HTTP 503 from slack'));
    const event = buildEvent.blogPost();
    const error = await f.router.deliver(event).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoticeDeliveryError);
    expect((error as NoticeDeliveryError).failedChannels).toEqual(['slack:T1:S1']);
    expect(f.discord.posts).toHaveLength(1);

    f.slack.clearFailure('S1');
    await f.router.deliver(event);
    expect(f.discord.posts).toHaveLength(1);
    expect(f.slack.posts).toHaveLength(1);

    await f.router.deliver(event);
    expect(f.discord.attempts).toHaveLength(1);
    expect(f.slack.attempts).toHaveLength(2);
  });

  test('a channel that is gone is logged and skipped, not retried', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['rewards'], 'U');
    await f.subscriptions.subscribe(d2, 'solar-kiosk', ['rewards'], 'U');
    f.discord.failFor('D1', (channel) => new ChannelUnavailableError(channel, 'gone'));
    const event = buildEvent.rewardSoldOut();
    await expect(f.router.deliver(event)).resolves.toBeUndefined();
    expect(f.discord.postsTo('D2')).toHaveLength(1);
    expect(f.logger.records.some((r) => r.level === 'warn' && r.details['channel'] === 'discord:G1:D1')).toBe(
      true,
    );
    await f.router.deliver(event);
    expect(f.discord.attempts.filter((a) => a.channel.channelId === 'D1')).toHaveLength(1);
  });

  test('no subscribers: nothing posted, no error', async () => {
    const f = setup();
    await f.router.deliver(buildEvent.watching());
    expect(f.discord.attempts).toEqual([]);
  });

  test('a platform without a poster is logged and skipped', async () => {
    const f = setup();
    await f.subscriptions.subscribe(
      { platform: 'console', workspaceId: 'console', channelId: 'terminal' },
      'solar-kiosk',
      ['wall'],
      'U',
    );
    await expect(f.router.deliver(buildEvent.wallPost())).resolves.toBeUndefined();
    expect(f.logger.records[0]?.message).toContain('no poster');
  });

  test('a channel that keeps failing is given up after maxChannelRetryMs, so it cannot hold back the project', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['supporters'], 'U');
    f.slack.failFor('S1', () => new Error('restricted_action'));
    const event = buildEvent.supporter();

    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    f.clock.advance(29 * 60_000);
    await expect(f.router.deliver(event)).rejects.toBeInstanceOf(NoticeDeliveryError);
    f.clock.advance(60_000);
    await f.router.deliver(event); // 30 minutes of failures: given up for S1, the event completes

    expect(f.discord.posts).toHaveLength(1);
    expect(f.slack.attempts).toHaveLength(3);
    expect(f.logger.records.some((r) => r.level === 'error' && r.message.includes('given up'))).toBe(true);
    await f.router.deliver(event);
    expect(f.slack.attempts).toHaveLength(3);
  });

  test('onPosted hears only of notices that were actually posted', async () => {
    const f = setup();
    const posted: string[] = [];
    const router = createNoticeRouter({
      core: f.core,
      subscriptions: f.subscriptions,
      posters: [f.discord, f.slack],
      store: f.store,
      clock: f.clock,
      onPosted: (event, channel) => posted.push(`${event.type}@${channel.channelId}`),
    });
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['wall'], 'U');
    await router.deliver(buildEvent.supporter());
    expect(posted).toEqual(['supporter@D1']);
  });
});
