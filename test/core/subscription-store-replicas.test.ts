/**
 * Subscriptions made at the same moment on different replicas all stay listed: each index (a list in one key)
 * is changed under its lock in the store. bench:replicas lost 1 of 24 such subscriptions to the
 * read-modify-write race before (two replicas read the project's list, the later write dropped the other's).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { type KeyValueStore, openStore } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';

const channels: ChannelRef[] = Array.from({ length: 12 }, (_, i) => ({
  platform: 'slack',
  workspaceId: 'T1',
  channelId: `C${String(i).padStart(2, '0')}`,
}));

/** Three replicas subscribe twelve channels to one project at once, then unsubscribe half of them at once. */
async function raceOn(replicas: readonly KeyValueStore[]): Promise<void> {
  const clock = new ManualClock();
  const stores = replicas.map((store) => createSubscriptionStore(store, { clock }));
  const on = (i: number) => stores[i % stores.length]!;
  await Promise.all(
    channels.map((channel, i) => on(i).subscribe(channel, 'solar-kiosk', ['supporters'], 'U1')),
  );
  for (const store of stores) {
    const listed = (await store.forProject('solar-kiosk')).map((s) => s.channel.channelId).sort();
    expect(listed).toEqual(channels.map((c) => c.channelId));
  }
  await Promise.all(
    channels.filter((_, i) => i % 2 === 0).map((channel, i) => on(i + 1).unsubscribe(channel, 'solar-kiosk')),
  );
  const left = (await stores[0]!.forProject('solar-kiosk')).map((s) => s.channel.channelId).sort();
  expect(left).toEqual(channels.filter((_, i) => i % 2 === 1).map((c) => c.channelId));
}

describe('subscriptions on replicas sharing one SQLite file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fundbot-subscriptions-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('twelve channels subscribed at once by three connections are all listed; unsubscribing half leaves the rest', async () => {
    const url = `sqlite://${join(dir, 'fundbot.sqlite')}`;
    const replicas = [await openStore(url), await openStore(url), await openStore(url)];
    try {
      await raceOn(replicas);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });
});

describe.skipIf(skipRedisTests())('subscriptions on replicas sharing a real redis-server', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => redis?.stop());

  it('twelve channels subscribed at once by three replicas are all listed; unsubscribing half leaves the rest', async () => {
    const replicas = [await openStore(redis.url), await openStore(redis.url), await openStore(redis.url)];
    try {
      await raceOn(replicas);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });
});
