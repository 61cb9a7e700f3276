/**
 * A post the platform took while the store was out: its confirming write failed (chaos seeds 22, 194: a notice
 * and a batch left `attempting` for the rest of the run; seed 169: a doubt a look decided found, same write).
 * The confirmation is kept and written when the store answers again, nothing is posted twice, and a kill -9
 * before then leaves a doubt that the next process decides by a look. The real pipeline on a memory store that
 * goes out as the chaos world's does (store-faults.ts), a virtual clock, scripted platforms.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDeliveryLedger, type DeliveryKey } from '../../src/delivery/delivery-ledger.js';
import { batchRecordSchema } from '../../src/delivery/pacing/batch-record.js';
import { type KeyValueStore, memoryStore, namespaced } from '../../src/lib/store.js';
import { storeWithFaults } from '../chaos/store-faults.js';
import { t0 } from '../support/builders.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { runFor, startPipeline } from './pipeline-harness.js';
import { ScriptedPoster } from './scripted-poster.js';

const s1: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const d1: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'D1' };
const minute = 60_000;
const outageMs = 30_000;

const supporter = (n: number) =>
  buildEvent.supporter({ id: `solar-kiosk:supporter:k${n}`, displayName: `Fan ${n}` });

/** A write that marks something posted: a delivery's confirmation (its id) or a batch's close (the batch id). */
interface PostedWrite {
  readonly delivery?: string;
  readonly batch?: string;
}

/**
 * The pipeline's store, going out for `outageMs` just as the posted write `outAt` picks comes: the post stands
 * in the channel, the write fails (and every other, as a Redis that went away).
 */
function storeGoingOut(store: KeyValueStore, clock: ManualClock) {
  const faults = storeWithFaults(store, clock);
  const control = {
    outAt: undefined as ((write: PostedWrite) => boolean) | undefined,
    store: {
      ...faults.store,
      set(key: string, value: unknown, ttlMs?: number) {
        const delivery = /notices\/delivered\/([^/]+)\//.exec(key)?.[1];
        const batch = /pacing\/batch\/(.+)$/.exec(key)?.[1];
        const posted = (value as { state?: string } | undefined)?.state === 'posted';
        const write = {
          ...(delivery ? { delivery: decodeURIComponent(delivery) } : {}),
          ...(batch ? { batch } : {}),
        };
        if (posted && control.outAt?.(write)) {
          control.outAt = undefined;
          faults.outage(clock.now() + outageMs);
        }
        return faults.store.set(key, value, ttlMs);
      },
    } satisfies KeyValueStore,
  };
  return control;
}

async function world(channel: ChannelRef, store: KeyValueStore = memoryStore(), clock = new ManualClock(t0)) {
  const outage = storeGoingOut(store, clock);
  const slack = new ScriptedPoster('slack', clock, { settleMs: 15_000, lookIntervalMs: minute });
  const discord = new ScriptedPoster('discord', clock);
  const poster = channel.platform === 'slack' ? slack : discord;
  const h = await startPipeline({ posters: [slack, discord], clock, store: outage.store });
  await h.subscribe(channel, ['supporters']);
  const ledger = createDeliveryLedger(namespaced(store, 'deliveries/'), {
    clock,
    prefix: 'notices/delivered/',
  });
  const record = (key: DeliveryKey) => ledger.get(key);
  // Read past the outage: what the store holds, not what the pipeline can reach.
  return { ...h, poster, outage, record, held: store };
}

describe('a post whose confirmation the store refused', () => {
  for (const channel of [s1, d1]) {
    it(`${channel.platform}: a live notice is confirmed when the store answers again, never posted twice`, async () => {
      const w = await world(channel);
      await w.pacing.setKind(channel, 'supporters', { mode: 'live' });
      const [first, second] = [supporter(1), supporter(2)];
      w.outage.outAt = (write) => write.delivery === first.id;
      // The outbox keeps the notice until its record says posted (a crash before then offers it again).
      expect(await w.offer(first)).toEqual([]);
      const key = { id: first.id, channel };
      expect((await w.record(key))?.state).toBe('attempting');
      // Offered during the outage: not placed (the store cannot be read), offered again by the outbox.
      expect(await w.offer(second).catch(() => [])).toEqual([]);
      await runFor(w, outageMs + 12_000);
      const sent = () => w.poster.in(channel.channelId).map((m) => m.key.split('@')[0]);
      const [message] = w.poster.in(channel.channelId);
      expect(await w.record(key)).toMatchObject({ state: 'posted', messageId: message?.id });
      expect(sent()).toEqual([first.id]);
      expect(w.poster.looks).toHaveLength(0);
      expect(await w.offer(first, second)).toEqual([first.id]);
      await runFor(w, 3 * minute, 5_000);
      expect(await w.offer(second)).toEqual([second.id]);
      expect(sent()).toEqual([first.id, second.id]);
      expect(
        w.logger.records.some((r) => r.message.includes('kept and written when the store answers')),
      ).toBe(true);
    });

    it(`${channel.platform}: a batch is confirmed, then closed; a notice held meanwhile opens the next batch`, async () => {
      const w = await world(channel);
      await w.pacing.setKind(channel, 'supporters', { mode: 'batched' });
      await w.offer(supporter(1), supporter(2));
      w.outage.outAt = (write) => write.delivery?.startsWith('batch:') === true;
      await runFor(w, 5 * minute, 5_000);
      const [batch] = w.poster.in(channel.channelId);
      expect(batch?.key).toMatch(/^batch:/);
      const batchKey = { id: batch!.key.split('@')[0]!, channel };
      expect((await w.record(batchKey))?.state).toBe('attempting');
      await runFor(w, outageMs + 12_000);
      expect(await w.record(batchKey)).toMatchObject({ state: 'posted', messageId: batch!.id });
      // Closed after its confirmation: a later supporter goes into the next window's batch, not the posted one.
      await w.offer(supporter(3));
      await runFor(w, 10 * minute, 5_000);
      const posted = w.poster.in(channel.channelId);
      expect(posted).toHaveLength(2);
      const names = posted.map((m) => m.message.text).join('\n');
      for (const n of [1, 2, 3]) expect(names.split(`Fan ${n}`)).toHaveLength(2);
    });
  }

  for (const channel of [s1, d1]) {
    it(`${channel.platform}: a doubt a look decides found as the store goes out: its confirmation is kept too (seed 169)`, async () => {
      const w = await world(channel);
      await w.pacing.setKind(channel, 'supporters', { mode: 'live' });
      const event = supporter(1);
      // It lands and its answer is lost: in doubt, looked for after its settle time (15 s).
      w.poster.fail(channel.channelId, { kind: 'lost-answer' });
      w.outage.outAt = (write) => write.delivery === event.id;
      await w.offer(event);
      await runFor(w, 20_000);
      expect(w.poster.looks).toHaveLength(1);
      const key = { id: event.id, channel };
      expect((await w.record(key))?.state).toBe('attempting');
      await runFor(w, outageMs + 12_000);
      const [message] = w.poster.in(channel.channelId);
      expect(await w.record(key)).toMatchObject({ state: 'posted', messageId: message?.id });
      expect(w.poster.in(channel.channelId)).toHaveLength(1);
      expect(w.poster.looks).toHaveLength(1);
      expect(await w.offer(event)).toEqual([event.id]);
    });
  }

  it('discord: a batch posted and confirmed whose close the store refused is closed when it answers again', async () => {
    const w = await world(d1);
    await w.pacing.setKind(d1, 'supporters', { mode: 'batched' });
    await w.offer(supporter(1), supporter(2));
    w.outage.outAt = (write) => write.batch !== undefined;
    await runFor(w, 5 * minute, 5_000);
    const [batch] = w.poster.in('D1');
    const id = batch!.key.split('@')[0]!;
    expect(await w.record({ id, channel: d1 })).toMatchObject({ state: 'posted', messageId: batch!.id });
    const stored = () => w.held.get(`deliveries/pacing/batch/${id}`, batchRecordSchema);
    expect((await stored())?.state).toBe('open');
    await runFor(w, outageMs + 12_000);
    expect((await stored())?.state).toBe('posted');
    await w.offer(supporter(3));
    await runFor(w, 10 * minute, 5_000);
    const posted = w.poster.in('D1');
    expect(posted).toHaveLength(2);
    const names = posted.map((m) => m.message.text).join('\n');
    for (const n of [1, 2, 3]) expect(names.split(`Fan ${n}`)).toHaveLength(2);
  });

  it("slack: a daily thread's parent whose confirmation the store refused is confirmed at the reply's retry, without a look", async () => {
    const w = await world(s1);
    await w.pacing.setKind(s1, 'supporters', { mode: 'live' });
    await w.dailyThreads.set(s1, true);
    const event = supporter(1);
    w.outage.outAt = (write) => write.delivery?.startsWith('thread-parent:') === true;
    await w.offer(event);
    const [parent] = w.poster.in('S1');
    expect(parent?.key).toMatch(/^thread-parent:/);
    const parentKey = { id: parent!.key.split('@')[0]!, channel: s1 };
    expect((await w.record(parentKey))?.state).toBe('attempting');
    await runFor(w, 2 * minute, 5_000);
    expect(await w.record(parentKey)).toMatchObject({ state: 'posted', messageId: parent!.id });
    const messages = w.poster.in('S1');
    expect(messages.map((m) => m.key.split('@')[0])).toEqual([parentKey.id, event.id]);
    expect(messages[1]?.thread?.parentMessageId).toBe(parent!.id);
    expect(w.poster.looks).toHaveLength(0);
    expect(await w.offer(event)).toEqual([event.id]);
  });

  it('a kill -9 before the store answers: the next process decides the doubt by a look, posts nothing', async () => {
    const store = memoryStore();
    const clock = new ManualClock(t0);
    const first = await world(s1, store, clock);
    await first.pacing.setKind(s1, 'supporters', { mode: 'live' });
    const event = supporter(1);
    first.outage.outAt = (write) => write.delivery === event.id;
    expect(await first.offer(event)).toEqual([]);
    await first.stop();
    await clock.advance(outageMs);
    const second = await world(s1, store, clock);
    second.poster.messages.push(...first.poster.messages);
    // The outbox offers again what it had not heard was done.
    await second.offer(event);
    await runFor(second, 2 * minute, 5_000);
    expect(second.poster.looks.length).toBeGreaterThan(0);
    expect(second.poster.attempts).toHaveLength(0);
    expect(await second.record({ id: event.id, channel: s1 })).toMatchObject({
      state: 'posted',
      messageId: first.poster.messages[0]?.id,
    });
    expect(await second.offer(event)).toEqual([event.id]);
  });
});
