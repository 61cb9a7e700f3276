/**
 * Issue 30: an uninstall (or fundbot removed from a Discord server) deletes every key of that workspace. The
 * whole store is scanned afterwards, on SQLite and on a real redis-server: no key names the workspace, and
 * another workspace's data is untouched. (The journeys drive the same through the running bot.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetWorkspace } from '../../src/app/forget-workspace.js';
import {
  type ChannelRef,
  createCampaignSettings,
  createChannelAccessStates,
  createDailyThreadSettings,
  createLowStockSettings,
  createNoticeRulesSettings,
  createPacingSettings,
  createRewardWatchStore,
  createSettingsStore,
  createSubscriptionStore,
} from '../../src/core/index.js';
import { channelKey } from '../../src/domain/channels.js';
import { namespaced, openStore } from '../../src/lib/store.js';
import { ManualClock } from '../support/manual-clock.js';
import { type RedisServer, skipRedisTests, startRedisServer } from '../support/redis-server.js';
import { allStoreKeys } from '../support/store-keys.js';

const clock = new ManualClock(Date.UTC(2026, 2, 2, 10));
const leaving = (channelId: string): ChannelRef => ({ platform: 'slack', workspaceId: 'T0GONE', channelId });
const staying: ChannelRef = { platform: 'slack', workspaceId: 'T0STAY', channelId: 'C0STAY' };

/** A workspace's data as the running bot writes it: settings through the core's stores, delivery keys as written. */
async function seed(url: string, channel: ChannelRef): Promise<void> {
  const store = await openStore(url);
  try {
    const subscriptions = createSubscriptionStore(store, { clock });
    await subscriptions.subscribe(channel, 'solar-kiosk', ['supporters', 'wall'], 'admin');
    await subscriptions.claimWatchingAnnouncement(channel, 'solar-kiosk');
    // Subscribed once, then unsubscribed: its "now watching" mark stays behind (issue 30 found it).
    const earlier = { ...channel, channelId: `${channel.channelId}OLD` };
    await subscriptions.subscribe(earlier, 'solar-kiosk', ['wall'], 'admin');
    await subscriptions.claimWatchingAnnouncement(earlier, 'solar-kiosk');
    await subscriptions.unsubscribe(earlier, 'solar-kiosk');
    await createSettingsStore(store).setLocale(channel, 'workspace', 'de');
    await createSettingsStore(store).setLocale(channel, 'channel', 'en');
    await createPacingSettings(store).setKind(channel, 'supporters', { mode: 'hourly' });
    await createDailyThreadSettings(store).set(channel, true);
    // /lowstock and /ping: they were left behind by an uninstall until the settings' prefixes became one table.
    await createLowStockSettings(store).set(channel, 3);
    await createNoticeRulesSettings(store).update(channel, () => ({
      ping: { target: 'R0PING', kinds: ['supporters'] },
    }));
    const campaign = createCampaignSettings(store);
    await campaign.setDeadline(channel, 'solar-kiosk', { date: '2026-12-24', timeZone: 'UTC', endsAt: 1 });
    await campaign.setRollCall(channel, { cadence: 'weekly', since: 0 });
    await store.set(`campaign/pace-alerts/solar-kiosk/${channelKey(channel)}`, { alerts: 0 });
    await store.set(`campaign/roll-call-cursor/solar-kiosk/${channelKey(channel)}`, { period: 'p', cut: 0 });
    await createChannelAccessStates(store).markCannotPost(channel, { reason: 'not-member' }, clock.now());
    // Issue 32 item 3c: a member's reward watch, and the once-only mark of a direct message already sent.
    const watch = { userId: 'U0WATCH', channelId: channel.channelId, project: 'solar-kiosk', rewardId: 202 };
    await createRewardWatchStore(store).add(channel, watch);
    const deliveries = namespaced(store, 'deliveries/');
    const key = channelKey(channel);
    for (const k of [
      `delivery/${encodeURIComponent('solar-kiosk:supporter:1')}/${key}`,
      `delivery/look/${key}`,
      `delivery/look-budget/${encodeURIComponent(key)}`,
      `pacing/recent/${key}/supporters`,
      `pacing/held/solar-kiosk:supporter:1@${key}`,
      `pacing/held-member/solar-kiosk/funding:1:2@${key}`,
      `pacing/thread/solar-kiosk/2026-03-02/${key}`,
      `pacing/corrected/solar-kiosk:supporter:1@${key}`,
      `pacing/batch/batch:${key}:solar-kiosk:supporters:1`,
      `dm/${encodeURIComponent('solar-kiosk:restock:202:1')}/slack:${channel.workspaceId}:U0WATCH`,
    ])
      await deliveries.set(k, { at: clock.now() }, 14 * 86_400_000);
  } finally {
    await store.close();
  }
}

async function uninstall(url: string): Promise<Record<string, number>> {
  const store = await openStore(url);
  try {
    return await forgetWorkspace({
      settingsStore: store,
      deliveriesStore: namespaced(store, 'deliveries/'),
      subscriptions: createSubscriptionStore(store, { clock }),
      access: createChannelAccessStates(store),
      rewardWatches: createRewardWatchStore(store),
      workspace: { platform: 'slack', workspaceId: 'T0GONE' },
    });
  } finally {
    await store.close();
  }
}

async function expectOnlyTheOtherWorkspaceLeft(url: string): Promise<void> {
  await seed(url, leaving('C0GONE'));
  await seed(url, staying);
  const before = await allStoreKeys(url);
  expect(before.filter((k) => k.includes('T0GONE')).length).toBeGreaterThan(15);
  const removed = await uninstall(url);
  expect(removed).toMatchObject({
    subscriptions: 1,
    marks: 2,
    deliveries: 10,
    campaign: 4,
    rewardWatches: 1,
  });
  const after = await allStoreKeys(url);
  expect(after.filter((k) => k.includes('T0GONE'))).toEqual([]);
  // The other workspace keeps every key it had.
  const kept = before.filter((k) => k.includes('T0STAY'));
  expect(kept.length).toBeGreaterThan(15);
  expect(after.filter((k) => k.includes('T0STAY'))).toEqual(kept);
  // The list of workspaces with watches (a value, not a key) names only the other one now.
  const store = await openStore(url);
  try {
    const watchers = await createRewardWatchStore(store).watchersOf('solar-kiosk', 202);
    expect(watchers.map((w) => w.workspace.workspaceId)).toEqual(['T0STAY']);
  } finally {
    await store.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'fundbot-forget-'));
let redis: RedisServer | undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await redis?.stop();
});

describe('forgetWorkspace leaves no key of the workspace', () => {
  it('on SQLite', async () => {
    await expectOnlyTheOtherWorkspaceLeft(`sqlite://${join(dir, 'store.sqlite')}`);
  });

  it.skipIf(skipRedisTests())('on a real redis-server', async () => {
    redis = await startRedisServer();
    await expectOnlyTheOtherWorkspaceLeft(redis.url);
  });
});
