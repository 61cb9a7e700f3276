import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const atFive: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'FIVE' };
const atTwo: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'TWO' };
const off: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'OFF' };

/** The drops the engine reports for one reward: 8 → 6 → 5 → 3, a cancellation (no event), 6 → 4 → 2 → 1. */
const drops = (
  [
    [8, 6],
    [6, 5],
    [5, 3],
    [6, 4],
    [4, 2],
    [2, 1],
  ] as const
).map(([remainingBefore, remaining], i) =>
  buildEvent.rewardLowStock({ id: `solar-kiosk:reward-low-stock:12:${i + 1}`, remainingBefore, remaining }),
);

async function setup(store = memoryStore()) {
  const clock = new ManualClock(t0);
  const discord = new ScriptedPoster('discord', clock);
  const slack = new ScriptedPoster('slack', clock);
  const h = await startPipeline({ posters: [discord, slack], clock, store });
  return { ...h, discord, slack };
}

describe('delivery pipeline: low-stock notices by each channel threshold', () => {
  it('each channel is told once per crossing of its own threshold, in its language; a channel without one never', async () => {
    const h = await setup();
    for (const channel of [atFive, atTwo, off]) await h.subscribe(channel, ['rewards']);
    await h.lowStock.set(atFive, 5);
    await h.lowStock.set(atTwo, 2);
    await h.settings.setLocale(atTwo, 'channel', 'de');
    await h.offer(...drops);
    expect(h.discord.in('FIVE').map((m) => m.message.title)).toEqual([
      '⏳ Last 5 left: Sunny mug',
      '⏳ Last 4 left: Sunny mug',
    ]);
    expect(h.slack.in('TWO').map((m) => m.message.title)).toEqual(['⏳ Nur noch 2: Sunny mug']);
    expect(h.discord.in('OFF')).toEqual([]);
  });

  it('offered again after a restart (the outbox repeats it), nothing is posted twice', async () => {
    const store = memoryStore();
    const first = await setup(store);
    await first.subscribe(atFive, ['rewards']);
    await first.lowStock.set(atFive, 5);
    await first.offer(...drops);
    await first.stop();
    const second = await setup(store);
    await second.offer(...drops);
    expect(first.discord.in('FIVE')).toHaveLength(2);
    expect(second.discord.in('FIVE')).toEqual([]);
  });

  it('a threshold set on another replica applies at the next offer', async () => {
    const store = memoryStore();
    const h = await setup(store);
    await h.subscribe(atFive, ['rewards']);
    await h.offer(drops[1] ?? buildEvent.rewardLowStock());
    expect(h.discord.in('FIVE')).toEqual([]);
    const other = await startPipeline({ posters: [], store, clock: h.clock });
    await other.lowStock.set(atFive, 5);
    await h.offer(drops[3] ?? buildEvent.rewardLowStock(), drops[4] ?? buildEvent.rewardLowStock());
    expect(h.discord.in('FIVE').map((m) => m.message.title)).toEqual(['⏳ Last 4 left: Sunny mug']);
  });
});
