import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import type { FeedHealthEvent } from '../../src/domain/events.js';
import { stepFeedHealth } from '../../src/domain/feed-health.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const all: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'ALL' };
const wall: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'WALL' };
const blog: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'BLOG' };

/** The stop notice the rule makes for `stop`, said at the end of the hold. */
function stopNotice(stop: FeedHealthEvent['stop']): FeedHealthEvent {
  const [event] = stepFeedHealth(
    'solar-kiosk',
    {},
    { stopped: [{ ...stop, since: t0 }], working: [] },
    t0 + 180_000,
  ).events;
  if (event === undefined) throw new Error('not said');
  return event;
}

describe('delivery of feed-health notices', () => {
  it('reaches every channel subscribed to a kind the stop silences, once each, at once whatever the pacing', async () => {
    const clock = new ManualClock(t0 + 180_000);
    const slack = new ScriptedPoster('slack', clock);
    const h = await startPipeline({ posters: [slack], clock });
    await h.subscribe(all);
    await h.subscribe(wall, ['wall']);
    await h.subscribe(blog, ['blog']);
    // Batched hourly and supporters in digest-only: a feed-health notice still goes out now.
    await h.pacing.setKind(all, 'supporters', { mode: 'digest' });
    await h.pacing.setKind(wall, 'wall', { mode: 'hourly' });
    const key = stopNotice({ subject: 'key', feed: 'all', cause: 'key-rejected' });
    await h.offer(key);
    expect(slack.messages.map((m) => m.channel.channelId).sort()).toEqual(['ALL', 'BLOG', 'WALL']);
    const scope = stopNotice({
      subject: 'scope:wall',
      feed: 'wall',
      cause: 'scope-missing',
      scope: 'wall:read',
    });
    await h.offer(scope);
    expect(slack.in('WALL')).toHaveLength(2);
    expect(slack.in('ALL')).toHaveLength(2);
    expect(slack.in('BLOG')).toHaveLength(1);
    expect(slack.in('WALL')[1]?.message.title).toBe('Wall notices of solar-kiosk have stopped');
  });

  it('the same notice offered again, by this process or another on the same store (a replica, a restart), is posted once', async () => {
    const store = memoryStore();
    const clock = new ManualClock(t0 + 180_000);
    const slack = new ScriptedPoster('slack', clock);
    const first = await startPipeline({ posters: [slack], clock, store });
    await first.subscribe(all);
    const event = stopNotice({ subject: 'key', feed: 'all', cause: 'key-wrong-project' });
    await first.offer(event);
    await first.offer(event);
    await first.stop();
    const second = await startPipeline({ posters: [slack], clock, store });
    expect(await second.offer(event)).toContain(event.id);
    expect(slack.in('ALL')).toHaveLength(1);
  });
});
