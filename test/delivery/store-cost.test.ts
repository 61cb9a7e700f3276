import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { operationCountingStore } from '../support/operation-counting-store.js';
import { startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const channels: ChannelRef[] = ['S1', 'S2', 'S3'].map((channelId) => ({
  platform: 'slack',
  workspaceId: 'T1',
  channelId,
}));

/**
 * What one notice costs the store on its way to a channel: the subscriptions and the
 * channel's settings are cached behind one stamp read per round, the delivery record is
 * read once, written twice (the attempt, the confirmation). Measured at the store the
 * pipeline is given (every key it reads or writes), per channel, in steady state.
 */
async function costPerNotice(channelCount: number) {
  const clock = new ManualClock(t0);
  const store = operationCountingStore(memoryStore());
  const slack = new ScriptedPoster('slack', clock);
  const h = await startPipeline({ posters: [slack], clock, store });
  for (const channel of channels.slice(0, channelCount)) {
    await h.subscribe(channel, ['supporters']);
    await h.pacing.setKind(channel, 'supporters', { mode: 'live' });
  }
  // The first notice warms the caches (a process reads each channel's settings once).
  await h.offer(buildEvent.supporter({ id: 'warm-up' }));
  store.reset();
  const notices = 20;
  for (let n = 0; n < notices; n += 1) {
    const event = buildEvent.supporter({ id: `s${n}` });
    await h.offer(event);
    expect(await h.offer(event)).toEqual([event.id]);
  }
  expect(slack.messages).toHaveLength((notices + 1) * channelCount);
  const perChannelNotice = notices * channelCount;
  return { reads: store.counts.reads / perChannelNotice, writes: store.counts.writes / perChannelNotice };
}

describe('store cost of a notice', () => {
  it('one channel: at most 4 reads and 2 writes (it was 15 and 4)', async () => {
    const cost = await costPerNotice(1);
    expect(cost.writes).toBeLessThanOrEqual(2);
    expect(cost.reads).toBeLessThanOrEqual(4);
  });

  it('three channels: at most 4 reads and 2 writes per channel (it was 35 and 12 in all)', async () => {
    const cost = await costPerNotice(3);
    expect(cost.writes).toBeLessThanOrEqual(2);
    expect(cost.reads).toBeLessThanOrEqual(4);
  });
});
