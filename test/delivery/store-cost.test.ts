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
 * The delivery trace (/notices) adds its write behind each notice: the head and a page, 2 writes and 1-2 reads
 * when notices come one at a time, as here (entries placed while a write is under way share the next one).
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

/**
 * What a held notice costs: its ledger mark, and its batch written once for the notices
 * that joined it within a few seconds (it was a write of the batch for each).
 */
async function costPerHeldNotice() {
  const clock = new ManualClock(t0);
  const store = operationCountingStore(memoryStore());
  const slack = new ScriptedPoster('slack', clock);
  const h = await startPipeline({ posters: [slack], clock, store });
  await h.subscribe(channels[0]!, ['supporters']);
  await h.pacing.setKind(channels[0]!, 'supporters', { mode: 'batched', intervalMs: 10 * 60_000 });
  await h.offer(buildEvent.supporter({ id: 'warm-up' }));
  await h.advance(5_000);
  store.reset();
  const notices = 20;
  const events = Array.from({ length: notices }, (_, n) => buildEvent.supporter({ id: `s${n}` }));
  // A notice a second, each offered until the outbox may forget it.
  for (const event of events) {
    await h.offer(event);
    await h.advance(1_000);
  }
  await h.advance(5_000);
  expect(await h.offer(...events)).toEqual(events.map((e) => e.id));
  expect(slack.messages).toHaveLength(0);
  return store.counts.writes / notices;
}

describe('store cost of a notice', () => {
  it("a held notice: its mark, and a share of one batch write per few seconds, and the trace's 2 writes (it was 2)", async () => {
    // 1.3 before the trace; its write (the head and a page) adds 2 to a notice that comes alone.
    expect(await costPerHeldNotice()).toBeLessThanOrEqual(3.3);
  });

  it("one channel: at most 4 reads and 2 writes, and the trace's 2 reads and 2 writes (it was 15 and 4)", async () => {
    const cost = await costPerNotice(1);
    // 2 before the trace; its head and page add 2.
    expect(cost.writes).toBeLessThanOrEqual(4);
    expect(cost.reads).toBeLessThanOrEqual(6);
  });

  it("three channels: at most 4 reads and 2 writes per channel, and the trace's 2 reads and 2 writes (it was 35 and 12 in all)", async () => {
    const cost = await costPerNotice(3);
    expect(cost.writes).toBeLessThanOrEqual(4);
    expect(cost.reads).toBeLessThanOrEqual(6);
  });
});
