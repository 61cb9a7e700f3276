import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDeliveryLedger, defaultDeliveryRecordTtlMs } from '../../src/delivery/delivery-ledger.js';
import { type KeyValueStore, openStore, SWEEP_SLICE_ROWS } from '../../src/lib/store.js';
import { startStoreSweep, sweepExpiredOnce } from '../../src/lib/store-sweep.js';
import { ManualClock } from '../support/manual-clock.js';

const day = 86_400_000;
let dir = '';
let file = '';
let store: KeyValueStore;

/** The keys really in the SQLite file (reads hide expired ones, but they stay on disk until swept). */
function keysOnDisk(): string[] {
  const raw = new Database(file, { readonly: true });
  const rows = raw.prepare<[], { key: string }>('SELECT key FROM kv ORDER BY key').all();
  raw.close();
  return rows.map((r) => r.key);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fundbot-sweep-'));
  file = join(dir, 'state.sqlite');
  store = await openStore(`sqlite://${file}`);
});

afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('expired values leave the SQLite file', () => {
  it('a delivery record is deleted once its 14 days are over; values without a TTL or still fresh stay', async () => {
    // `expires` is stamped with the system time (as keyv did), so the sweep's "now" is that time plus the days passed.
    const ledger = createDeliveryLedger(store);
    const key = { id: 'evt-1', channel: { platform: 'discord' as const, workspaceId: '7', channelId: '42' } };
    await ledger.beginAttempt(key, undefined);
    await store.set('fresh', { kept: true }, 30 * day);
    await store.set('engine/p/head', { kept: true });
    expect(keysOnDisk()).toHaveLength(3);

    const early = await sweepExpiredOnce(store, Date.now() + defaultDeliveryRecordTtlMs - day);
    expect(early.deleted).toBe(0);
    const swept = await sweepExpiredOnce(store, Date.now() + defaultDeliveryRecordTtlMs + day);
    // Only rows with an expiry past "now" are read (an index on `expires`): the others cost nothing.
    expect(swept).toEqual({ scanned: 1, deleted: 1 });
    expect(keysOnDisk()).toEqual(['engine/p/head', 'fresh']);
    expect(await store.get('fresh', z.object({ kept: z.boolean() }))).toEqual({ kept: true });
  });

  it('runs every hour on its own, each sweep bounded, a large store covered over several sweeps', async () => {
    const rows = SWEEP_SLICE_ROWS + 200;
    // Thousands of sets in one tick: one transaction (group commit).
    await Promise.all(Array.from({ length: rows }, (_, i) => store.set(`delivery/${i}`, { i }, day)));
    await store.set('engine/p/head', { kept: true });
    const clock = new ManualClock(Date.now() + 2 * day);
    const sweeps: { scanned: number; deleted: number }[] = [];
    let notify = () => {};
    const sweep = startStoreSweep({
      store,
      clock,
      maxSlices: 1,
      onSweep: (result) => {
        sweeps.push(result);
        notify();
      },
    });
    const nextSweep = () =>
      new Promise<void>((resolve) => {
        notify = resolve;
        clock.advance(3_600_000);
      });
    await clock.untilSleepers();
    await nextSweep();
    expect(sweeps).toEqual([{ scanned: SWEEP_SLICE_ROWS, deleted: SWEEP_SLICE_ROWS }]);
    await clock.untilSleepers();
    await nextSweep();
    expect(sweeps[1]).toEqual({ scanned: 200, deleted: 200 });
    sweep.stop();
    expect(keysOnDisk()).toEqual(['engine/p/head']);
  }, 60_000);

  it('stores that expire values themselves (memory, Redis) have nothing to sweep', async () => {
    const memory = await openStore('memory:');
    expect(memory.sweepExpired).toBeUndefined();
    expect(await sweepExpiredOnce(memory, Date.now())).toEqual({ scanned: 0, deleted: 0 });
  });
});
