import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
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

/** The keys really in the SQLite file (keyv hides expired ones on read, but they stay on disk). */
async function keysOnDisk(): Promise<string[]> {
  const raw = new KeyvSqlite({ uri: `sqlite://${file}`, table: 'fundbot' });
  const rows = (await raw.query('SELECT key FROM fundbot ORDER BY key')) as { key: string }[];
  await raw.disconnect();
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
    // keyv stamps `expires` with the system time, so the sweep's "now" is that time plus the days passed.
    const ledger = createDeliveryLedger(store);
    const key = { id: 'evt-1', channel: { platform: 'discord' as const, workspaceId: '7', channelId: '42' } };
    await ledger.beginAttempt(key, undefined);
    await store.set('fresh', { kept: true }, 30 * day);
    await store.set('engine/p/head', { kept: true });
    const before = await keysOnDisk();
    expect(before).toHaveLength(3);

    const early = await sweepExpiredOnce(store, Date.now() + defaultDeliveryRecordTtlMs - day);
    expect(early.deleted).toBe(0);
    const swept = await sweepExpiredOnce(store, Date.now() + defaultDeliveryRecordTtlMs + day);
    expect(swept).toEqual({ scanned: 3, deleted: 1 });
    expect(await keysOnDisk()).toEqual(['fundbot:engine/p/head', 'fundbot:fresh']);
    expect(await store.get('fresh', z.object({ kept: z.boolean() }))).toEqual({ kept: true });
  });

  it('runs every hour on its own, each sweep bounded, a large store covered over several sweeps', async () => {
    const rows = SWEEP_SLICE_ROWS + 200;
    // Written in keyv's own row format in one statement (thousands of single sets take seconds).
    await store.set('delivery/first', { i: -1 }, day);
    const raw = new KeyvSqlite({ uri: `sqlite://${file}`, table: 'fundbot' });
    await raw.query(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO fundbot SELECT 'fundbot:delivery/' || i, json_object('value', json_object('i', i), 'expires', ?) FROM n`,
      rows - 1,
      Date.now() + day,
    );
    await raw.disconnect();
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
    expect(await keysOnDisk()).toEqual([]);
  }, 60_000);

  it('stores that expire values themselves (memory, Redis) have nothing to sweep', async () => {
    const memory = await openStore('memory:');
    expect(memory.sweepExpired).toBeUndefined();
    expect(await sweepExpiredOnce(memory, Date.now())).toEqual({ scanned: 0, deleted: 0 });
  });
});
