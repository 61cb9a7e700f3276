import { describe, expect, test } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';

const inTeam = (workspaceId: string, channelId: string): ChannelRef => ({
  platform: 'slack',
  workspaceId,
  channelId,
});

describe('SubscriptionStore.removeWorkspace (a Slack workspace uninstalled the app)', () => {
  test('removes every subscription of that workspace and nothing of another', async () => {
    const subs = createSubscriptionStore(memoryStore(), { clock: new ManualClock() });
    await subs.subscribe(inTeam('T1', 'C1'), 'solar-kiosk', ['wall'], 'U1');
    await subs.subscribe(inTeam('T1', 'C1'), 'tiny-farm', ['blog'], 'U1');
    await subs.subscribe(inTeam('T1', 'C2'), 'solar-kiosk', ['wall'], 'U1');
    await subs.subscribe(inTeam('T2', 'C9'), 'solar-kiosk', ['wall'], 'U2');
    // Same ids on Discord are another workspace.
    await subs.subscribe(
      { platform: 'discord', workspaceId: 'T1', channelId: 'C1' },
      'solar-kiosk',
      ['wall'],
      'U3',
    );

    expect(await subs.removeWorkspace({ platform: 'slack', workspaceId: 'T1' })).toBe(3);

    expect(await subs.forChannel(inTeam('T1', 'C1'))).toEqual([]);
    expect(await subs.forChannel(inTeam('T1', 'C2'))).toEqual([]);
    expect(
      (await subs.forProject('solar-kiosk', 'wall')).map(
        (s) => `${s.channel.platform}:${s.channel.channelId}`,
      ),
    ).toEqual(['slack:C9', 'discord:C1']);
    expect(await subs.removeWorkspace({ platform: 'slack', workspaceId: 'T1' })).toBe(0);
  });

  test('a channel whose last subscription went is no longer listed for its workspace', async () => {
    const subs = createSubscriptionStore(memoryStore(), { clock: new ManualClock() });
    await subs.subscribe(inTeam('T1', 'C1'), 'solar-kiosk', ['wall'], 'U1');
    await subs.unsubscribe(inTeam('T1', 'C1'), 'solar-kiosk');
    await subs.subscribe(inTeam('T1', 'C2'), 'solar-kiosk', ['wall'], 'U1');
    expect(await subs.removeWorkspace({ platform: 'slack', workspaceId: 'T1' })).toBe(1);
  });
});
