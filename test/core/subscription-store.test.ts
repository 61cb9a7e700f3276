import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createSettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore, StoredValueError } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';

const a: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'A' };
const b: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'B' };

function setup() {
  const clock = new ManualClock();
  const store = memoryStore();
  return { clock, store, subs: createSubscriptionStore(store, { clock }) };
}

describe('SubscriptionStore', () => {
  test('forProject finds the channels subscribed to a kind; forChannel the projects', async () => {
    const { subs } = setup();
    await subs.subscribe(a, 'solar-kiosk', ['wall', 'blog'], 'U1');
    await subs.subscribe(b, 'solar-kiosk', ['wall'], 'U2');
    await subs.subscribe(a, 'tiny-farm', ['supporters'], 'U1');
    expect((await subs.forProject('solar-kiosk', 'wall')).map((s) => s.channel.channelId)).toEqual([
      'A',
      'B',
    ]);
    expect((await subs.forProject('solar-kiosk', 'blog')).map((s) => s.channel.channelId)).toEqual(['A']);
    expect((await subs.forProject('solar-kiosk', 'supporters')).length).toBe(0);
    expect((await subs.forChannel(a)).map((s) => s.project)).toEqual(['solar-kiosk', 'tiny-farm']);
  });

  test('subscribing again adds kinds, keeps the creator and is idempotent', async () => {
    const { subs, clock } = setup();
    const first = await subs.subscribe(a, 'p', ['wall'], 'U1');
    clock.advance(1000);
    await subs.subscribe(a, 'p', ['blog', 'wall'], 'U2');
    const again = await subs.subscribe(a, 'p', ['blog'], 'U3');
    expect(again).toEqual({
      ...first,
      kinds: ['wall', 'blog'],
      // Each kind keeps the time it was first added (the digest's first day depends on it).
      kindsAddedAt: { wall: first.createdAt, blog: first.createdAt + 1000 },
    });
    expect(await subs.forProject('p', 'wall')).toHaveLength(1);
  });

  test('unsubscribing kinds leaves the rest; all kinds removes the channel from both indexes', async () => {
    const { subs } = setup();
    await subs.subscribe(a, 'p', ['wall', 'blog'], 'U1');
    expect((await subs.unsubscribe(a, 'p', ['wall']))?.kinds).toEqual(['blog']);
    expect(await subs.unsubscribe(a, 'p')).toBeUndefined();
    expect(await subs.forChannel(a)).toEqual([]);
    expect(await subs.forProject('p', 'blog')).toEqual([]);
    expect(await subs.unsubscribe(a, 'p')).toBeUndefined();
  });

  test('concurrent subscriptions of different channels to one project both survive', async () => {
    const { subs } = setup();
    const channels = Array.from({ length: 5 }, (_, i) => ({ ...a, channelId: `C${i}` }));
    await Promise.all(channels.map((c) => subs.subscribe(c, 'p', ['wall'], 'U')));
    expect((await subs.forProject('p', 'wall')).length).toBe(5);
  });

  test('two replicas (two store instances on one backend) subscribing at once both survive', async () => {
    const { store, clock } = setup();
    const replica1 = createSubscriptionStore(store, { clock });
    const replica2 = createSubscriptionStore(store, { clock });
    await Promise.all([
      replica1.subscribe(a, 'p', ['wall'], 'U1'),
      replica2.subscribe(b, 'p', ['wall'], 'U2'),
    ]);
    expect((await replica1.forProject('p', 'wall')).length).toBe(2);
  });

  test('channel ids with separators cannot collide', async () => {
    const { subs } = setup();
    await subs.subscribe({ platform: 'discord', workspaceId: 'a:b', channelId: 'c' }, 'p', ['wall'], 'U');
    expect(await subs.forChannel({ platform: 'discord', workspaceId: 'a', channelId: 'b:c' })).toEqual([]);
  });

  test('a corrupted stored value is reported, not silently used', async () => {
    const { subs, store } = setup();
    await subs.subscribe(a, 'p', ['wall'], 'U');
    await store.set('subscriptions/by-project/p', [{ platform: 'irc', channelId: 1 }]);
    await expect(subs.forProject('p', 'wall')).rejects.toBeInstanceOf(StoredValueError);
  });
});

describe('SettingsStore', () => {
  test('keeps channel and workspace locales apart and clears them', async () => {
    const settings = createSettingsStore(memoryStore());
    await settings.setLocale(a, 'workspace', 'de');
    expect(await settings.locales({ ...a, channelId: 'other' })).toEqual({ workspace: 'de' });
    await settings.setLocale(a, 'channel', 'en');
    expect(await settings.locales(a)).toEqual({ channel: 'en', workspace: 'de' });
    await settings.clearLocale(a, 'channel');
    expect(await settings.locales(a)).toEqual({ workspace: 'de' });
    expect(await settings.locales(b)).toEqual({});
  });
});
