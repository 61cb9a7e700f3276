import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { startStoreMarker } from '../../src/ops/store-marker.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingLogger } from '../support/recording-logger.js';

/**
 * The store marker on a real SQLite file: a store that comes back empty while the marker beside it says it held
 * data is said out loud; a run shorter than the first re-check still leaves its marker (issue 23).
 */
describe('store marker', () => {
  let dir: string;
  let storeUrl: string;
  let stores: KeyValueStore[] = [];
  const open = async () => {
    const store = await openStore(storeUrl);
    stores.push(store);
    return store;
  };
  const heldKeys = () => [{ project: 'solar-kiosk', key: 'engine/state/solar-kiosk' }];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fundbot-marker-'));
    storeUrl = `sqlite://${join(dir, 'fundbot.sqlite')}`;
  });
  afterEach(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
    stores = [];
    rmSync(dir, { recursive: true, force: true });
  });

  it('a short run that wrote data leaves its marker at stop, before the first re-check', async () => {
    const store = await open();
    const clock = new ManualClock();
    const logger = recordingLogger();
    const marker = await startStoreMarker({ storeUrl, store, clock, logger, heldKeys });
    await store.set('engine/state/solar-kiosk', { window: [] });
    expect(existsSync(join(dir, 'fundbot.sqlite.marker'))).toBe(false);
    await marker.stop();
    expect(existsSync(join(dir, 'fundbot.sqlite.marker'))).toBe(true);
    expect(marker.check().ok).toBe(true);
  });

  it('the store file deleted: the next start says so at error level, /healthz fails until the marker is deleted', async () => {
    const first = await open();
    const clock = new ManualClock();
    const before = await startStoreMarker({
      storeUrl,
      store: first,
      clock,
      logger: recordingLogger(),
      heldKeys,
    });
    await first.set('engine/state/solar-kiosk', { window: [] });
    await before.stop();
    await first.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, `fundbot.sqlite${suffix}`), { force: true });

    const logger = recordingLogger();
    const after = await startStoreMarker({ storeUrl, store: await open(), clock, logger, heldKeys });
    const alarm = logger.records.find((r) => r.level === 'error');
    expect(alarm?.msg).toMatch(/the store is empty, but .* says it held data \(solar-kiosk/);
    expect(alarm?.msg).toMatch(/Restore the store from your backup/);
    expect(after.check()).toMatchObject({ ok: false });
    rmSync(join(dir, 'fundbot.sqlite.marker'));
    expect(after.check().ok).toBe(true);
    await after.stop();
  });

  it('a first run on an empty store with no marker is quiet', async () => {
    const logger = recordingLogger();
    const marker = await startStoreMarker({
      storeUrl,
      store: await open(),
      clock: new ManualClock(),
      logger,
      heldKeys,
    });
    expect(logger.records.filter((r) => r.level === 'error' || r.level === 'warn')).toEqual([]);
    expect(marker.check().ok).toBe(true);
    await marker.stop();
    expect(existsSync(join(dir, 'fundbot.sqlite.marker'))).toBe(false);
  });
});
