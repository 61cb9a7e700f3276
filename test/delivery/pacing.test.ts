import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createNoticeRouter } from '../../src/delivery/notice-router.js';
import { createPacedRouter } from '../../src/delivery/paced-router.js';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { allText, createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { EditablePoster } from './pacing-fakes.js';

const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const minute = 60_000;

function setup(
  fixture = createCoreFixture(),
  posters = [new EditablePoster('discord'), new EditablePoster('slack')],
) {
  const make = () => {
    const router = createNoticeRouter({
      core: fixture.core,
      subscriptions: fixture.subscriptions,
      posters,
      store: fixture.store,
      clock: fixture.clock,
    });
    return createPacedRouter({
      router,
      core: fixture.core,
      subscriptions: fixture.subscriptions,
      posters,
      store: fixture.store,
      clock: fixture.clock,
    });
  };
  const pacing = createPacingSettings(fixture.store);
  const [discord, slack] = posters as [EditablePoster, EditablePoster];
  return { ...fixture, discord, slack, pacing, paced: make(), restart: () => make() };
}

const supporter = (n: number, total = 10_000 + n * 10) =>
  buildEvent.supporter({
    id: `solar-kiosk:supporter:k${n}`,
    displayName: `Fan ${n}`,
    fundingTotal: total,
    supporterCount: 100 + n,
  });

describe('pacing', () => {
  test('auto (default for supporters): live while the channel is quiet, then one batch per window with every name', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    for (let n = 1; n <= 4; n += 1) {
      await f.paced.deliver(supporter(n));
      f.clock.advance(minute);
    }
    expect(f.discord.posts).toHaveLength(4);
    for (let n = 5; n <= 11; n += 1) await f.paced.deliver(supporter(n));
    expect(f.discord.posts).toHaveLength(4);
    f.clock.advance(10 * minute);
    await f.paced.flushDue();
    expect(f.discord.posts).toHaveLength(5);
    const batch = allText(f.discord.posts[4]!.message);
    expect(f.discord.posts[4]!.message.title).toMatch(/^🎉 7 new supporters since \d\d:\d\d UTC$/);
    for (let n = 5; n <= 11; n += 1) expect(batch).toContain(`Fan ${n}`);
    // Read with the newest held supporter (Fan 11, at the 4th minute), posted at the window's end: said with its time.
    expect(batch).toMatch(/as of \d\d:\d\d UTC: supporter count 111 · total €10,110 \(\+€70\)/);
    expect(batch).not.toContain('now');
    await f.paced.flushDue();
    expect(f.discord.posts).toHaveLength(5);
  });

  test('batched: one message per interval; restarting before the window ends neither loses nor repeats it', async () => {
    const f = setup();
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['supporters'], 'U');
    await f.pacing.setKind(s1, 'supporters', { mode: 'batched' });
    await f.paced.deliver(supporter(1));
    await f.paced.deliver(supporter(2));
    const after = f.restart();
    await after.deliver(supporter(2)); // the outbox retrying after the crash
    await after.deliver(supporter(3));
    f.clock.advance(5 * minute);
    await after.flushDue();
    await f.paced.flushDue();
    expect(f.slack.posts).toHaveLength(1);
    expect(f.slack.posts[0]!.message.title).toContain('3 new supporters');
  });

  test('digest only posts nothing; hourly waits for the hour', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters', 'wall'], 'U');
    await f.pacing.setKind(d1, 'supporters', { mode: 'digest' });
    await f.pacing.setKind(d1, 'wall', { mode: 'hourly' });
    await f.paced.deliver(supporter(1));
    await f.paced.deliver(buildEvent.wallPost());
    f.clock.advance(30 * minute);
    await f.paced.flushDue();
    const before = f.discord.posts.length;
    f.clock.advance(31 * minute);
    await f.paced.flushDue();
    expect(f.discord.posts.length - before + before).toBe(1);
    expect(f.discord.posts.at(-1)!.message.title).toContain('1 new wall post');
  });

  test('quiet hours hold everything and post one summary when they end', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    const minuteOfDay = Math.floor((f.clock.now() % 86_400_000) / minute);
    await f.pacing.setQuiet(d1, { startMinute: minuteOfDay, endMinute: (minuteOfDay + 60) % 1440 });
    await f.pacing.setKind(d1, 'supporters', { mode: 'live' });
    for (let n = 1; n <= 3; n += 1) await f.paced.deliver(supporter(n));
    expect(f.discord.posts).toHaveLength(0);
    f.clock.advance(61 * minute);
    await f.paced.deliver(supporter(4));
    expect(f.discord.posts.map((p) => p.message.title)).toEqual([
      expect.stringContaining('3 new supporters'),
      '🎉 New supporter: Fan 4',
    ]);
    expect(allText(f.discord.posts[0]!.message)).toContain('Held during quiet hours');
  });
});

describe('corrections', () => {
  const dropped = (n: number, name = `Fan ${n}`): SupportDroppedEvent => ({
    type: 'support-dropped',
    id: `solar-kiosk:support-dropped:k${n}`,
    project: 'solar-kiosk',
    occurredAt: 0,
    detectedAt: 0,
    originalEventId: `solar-kiosk:supporter:k${n}`,
    entryKey: `k${n}`,
    displayName: name,
  });

  test('a dropped support edits the posted notice on both platforms, struck through, once, also after a restart', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    await f.subscriptions.subscribe(s1, 'solar-kiosk', ['supporters'], 'U');
    await f.settings.setLocale(s1, 'channel', 'de');
    await f.paced.deliver(supporter(1));
    const again = f.restart();
    await again.deliver(dropped(1));
    await again.deliver(dropped(1));
    expect(f.discord.edits).toHaveLength(1);
    expect(f.slack.edits).toHaveLength(1);
    expect(f.discord.edits[0]).toMatchObject({
      messageId: f.discord.posts[0]!.id,
      message: { struck: true },
    });
    expect(f.discord.edits[0]!.message.text).toContain('Withdrawn');
    expect(f.slack.edits[0]!.message.text).toContain('Zurückgezogen');
    expect(f.discord.posts).toHaveLength(1);
  });

  test('a drop while held leaves the batch; a drop after the batch posted edits the batch', async () => {
    const f = setup();
    await f.subscriptions.subscribe(d1, 'solar-kiosk', ['supporters'], 'U');
    await f.pacing.setKind(d1, 'supporters', { mode: 'batched' });
    for (let n = 1; n <= 3; n += 1) await f.paced.deliver(supporter(n));
    await f.paced.deliver(dropped(2));
    f.clock.advance(5 * minute);
    await f.paced.flushDue();
    expect(f.discord.posts[0]!.message.title).toContain('2 new supporters');
    expect(allText(f.discord.posts[0]!.message)).not.toContain('Fan 2');
    await f.paced.deliver(dropped(3));
    expect(f.discord.edits).toHaveLength(1);
    expect(f.discord.edits[0]!.message.title).toContain('1 new supporter');
    expect(f.discord.edits[0]!.message.text).toContain('Withdrawn since: Fan 3');
  });
});
