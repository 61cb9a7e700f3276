import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import type { BatchRecord, HeldEntry } from '../../src/delivery/pacing/batch-record.js';
import { batchRecordSchema } from '../../src/delivery/pacing/batch-record.js';
import { createBatchStore } from '../../src/delivery/pacing/batch-store.js';
import { Wakeups } from '../../src/delivery/wakeups.js';
import { type KeyValueStore, memoryStore } from '../../src/lib/store.js';
import { t0 } from '../support/builders.js';
import { ManualClock } from '../support/manual-clock.js';
import { operationCountingStore } from '../support/operation-counting-store.js';

const channel: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'S1' };
const entry = (n: number): HeldEntry => ({ eventId: `e${n}`, count: 1, names: [`Fan ${n}`] });
const open = (entries: readonly HeldEntry[]): BatchRecord => ({
  id: 'batch-1',
  project: 'solar-kiosk',
  kind: 'supporters',
  channel,
  reason: 'paced',
  since: t0,
  due: t0 + 600_000,
  state: 'open',
  entries,
  withdrawn: [],
  supporterCount: null,
  fundingTotal: null,
  fundingBefore: null,
  currency: '',
});

/** A store whose writes fail while `down` is set (a full disk, Redis gone). */
function failingWrites(inner: KeyValueStore) {
  const state = { down: false };
  const store: KeyValueStore = {
    ...inner,
    async set(key, value, ttl) {
      if (state.down) throw new Error('store is down');
      return inner.set(key, value, ttl);
    },
  };
  return { store, state };
}

/** A store whose writes wait until `release()` while `held` is set (a slow disk, a far Redis). */
function slowWrites(inner: KeyValueStore) {
  let waiting: (() => void)[] = [];
  const state = { held: false };
  const store: KeyValueStore = {
    ...inner,
    async set(key, value, ttl) {
      if (state.held) await new Promise<void>((resolve) => waiting.push(resolve));
      return inner.set(key, value, ttl);
    },
  };
  const release = () => {
    state.held = false;
    for (const go of waiting) go();
    waiting = [];
  };
  return { store, state, release };
}

async function setup(inner: KeyValueStore = memoryStore()) {
  const clock = new ManualClock(t0);
  const wakeups = new Wakeups(clock);
  const counted = operationCountingStore(inner);
  const batches = createBatchStore(counted, { gatherMs: 5_000, wakeups, clock });
  const stored = () => inner.get('pacing/batch/batch-1', batchRecordSchema);
  const flush = async (ms: number) => {
    clock.advance(ms);
    for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  };
  return { clock, batches, counted, stored, flush };
}

describe('held batches: the notices that join within a few seconds are stored in one write', () => {
  it('three notices, one write of their batch, and each told when it is stored', async () => {
    const { batches, counted, stored, flush } = await setup();
    const told: string[] = [];
    for (const n of [1, 2, 3]) {
      await batches.gather(open([1, 2, 3].slice(0, n).map(entry)));
      void batches.stored('batch-1').then(() => told.push(`e${n}`));
    }
    await flush(4_999);
    expect(told).toEqual([]);
    expect(await stored()).toBeUndefined();
    await flush(1);
    expect(told).toEqual(['e1', 'e2', 'e3']);
    expect((await stored())?.entries).toHaveLength(3);
    // The project's open list (the batch is new) and the batch itself.
    expect(counted.counts.writes).toBe(2);
  });

  it('a batch closed while its write gathers stays closed: the gathered write never lands over it', async () => {
    const { batches, stored, flush } = await setup();
    await batches.gather(open([entry(1), entry(2)]));
    const storedAt = batches.stored('batch-1');
    await batches.close({ ...open([entry(1), entry(2)]), state: 'posted' });
    await storedAt;
    await flush(10_000);
    expect((await stored())?.state).toBe('posted');
  });

  it('a notice found in a batch whose write is on its way is told when that write lands, not before', async () => {
    const { store, state, release } = slowWrites(memoryStore());
    const { batches, flush } = await setup(store);
    await batches.gather(open([entry(1)]));
    state.held = true;
    await flush(5_000);
    let told = false;
    void batches.stored('batch-1').then(() => {
      told = true;
    });
    await flush(0);
    expect(told).toBe(false);
    release();
    await flush(0);
    expect(told).toBe(true);
  });

  it('a write the store refused is made again with the next gathering; the notices wait for it', async () => {
    const inner = memoryStore();
    const { store, state } = failingWrites(inner);
    const { batches, stored, flush } = await setup(store);
    await batches.gather(open([entry(1)]));
    let done = false;
    void batches.stored('batch-1').then(() => {
      done = true;
    });
    state.down = true;
    await flush(5_000);
    expect(done).toBe(false);
    state.down = false;
    await flush(5_000);
    expect(done).toBe(true);
    expect((await stored())?.entries).toHaveLength(1);
  });
});
