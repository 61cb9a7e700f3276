import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { startStoreMarker } from '../../src/ops/store-marker.js';
import { ManualClock } from '../support/manual-clock.js';
import { recordingLogger } from '../support/recording-logger.js';
import { skipRedisTests } from '../support/redis-server.js';
import { sharedRedis } from '../support/shared-redis.js';

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

describe.skipIf(skipRedisTests())('store marker on a real redis-server (a replica of 3,000 projects)', () => {
  const redis = sharedRedis({ flushBeforeEach: true });

  it('finds the projects holding data with 12 MGETs for 6,000 keys, not a GET each (issue 33)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fundbot-marker-redis-'));
    const store = await openStore(redis.server.url);
    try {
      const projects = Array.from({ length: 3_000 }, (_, i) => `project-${i}`);
      const heldKeys = () =>
        projects.flatMap((project) => [
          { project, key: `engine/state/${project}/head` },
          { project, key: `subscriptions/by-project/${project}` },
        ]);
      // Data under one key or the other: the head of every 7th project, the subscriptions of every 11th.
      const holding = projects.filter((_, i) => i % 7 === 0 || i % 11 === 0).sort();
      for (const [i, project] of projects.entries()) {
        if (i % 7 === 0) await store.set(`engine/state/${project}/head`, { v: 1 });
        if (i % 11 === 0) await store.set(`subscriptions/by-project/${project}`, ['C1']);
      }
      await redis.client.configResetStat();
      const path = join(dir, 'fundbot-redis.marker');
      const storeUrl = redis.server.url;
      const marker = await startStoreMarker({
        storeUrl,
        store,
        clock: new ManualClock(),
        logger: recordingLogger(),
        heldKeys,
        path,
      });
      const stats = await redis.client.info('commandstats');
      const calls = (command: string) =>
        Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls('mget')).toBe(12);
      expect(calls('get')).toBe(0);
      expect(JSON.parse(readFileSync(path, 'utf8')).projects).toEqual(holding);
      expect(marker.check().ok).toBe(true);
      await marker.stop();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
