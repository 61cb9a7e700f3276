import { describe, expect, test } from 'vitest';
import { createRewardWatchStore } from '../../src/core/settings/reward-watch-store.js';
import { rewardWatchesPerUser } from '../../src/domain/reward-watch.js';
import { memoryStore } from '../../src/lib/store.js';
import { buildIncentive, buildProject } from '../support/builders.js';
import { createCoreFixture, discordChannel } from '../support/core-fixture.js';

const soldOut = (id: number, title = `Kit ${id}`) =>
  buildIncentive({
    id,
    title,
    quantity_total: 4,
    quantity_remaining: 0,
    quantity_sold: 4,
    is_available: false,
  });

function setup(rewards = [soldOut(301, 'Kiosk kit @everyone <!channel>'), buildIncentive({ id: 12 })]) {
  const store = memoryStore();
  const rewardWatches = createRewardWatchStore(store);
  const f = createCoreFixture({ projects: [{ project: buildProject(), rewards }], deps: { rewardWatches } });
  return { f, rewardWatches, store };
}

describe('/watch and /unwatch', () => {
  test('any member watches a sold-out reward (Slack text "reward 301" or Discord "301"), privately; listed; unwatched', async () => {
    const { f, rewardWatches } = setup();
    const added = await f.run('watch', { reward: 'reward 301' });
    expect(added).toMatchObject({ tone: 'success', private: true });
    expect(added.text).toContain('one direct message');
    expect(await rewardWatches.watchersOf('solar-kiosk', 301)).toEqual([
      {
        userId: 'U1',
        channelId: 'C1',
        project: 'solar-kiosk',
        rewardId: 301,
        workspace: { platform: 'discord', workspaceId: 'G1' },
      },
    ]);
    const again = await f.run('watch', { reward: '301' });
    expect(again.text).toContain('already watch');
    expect(await rewardWatches.watchersOf('solar-kiosk', 301)).toHaveLength(1);
    const listed = await f.run('watch', {});
    expect(listed).toMatchObject({ private: true, title: 'Your reward watches' });
    expect(listed.text).toContain('#301 in solar-kiosk');
    // Another member's list is their own.
    expect((await f.run('watch', {}, { user: { id: 'U2', displayName: 'Bob' } })).text).toContain(
      'You watch no rewards',
    );
    const removed = await f.run('unwatch', { reward: 'reward 301' });
    expect(removed).toMatchObject({ tone: 'success', private: true });
    expect(await rewardWatches.watchersOf('solar-kiosk', 301)).toEqual([]);
    expect((await f.run('unwatch', { reward: '301' })).text).toContain('were not watching');
  });

  test('a reward on sale now, an unknown reward and a bad id are refused and store nothing', async () => {
    const { f, rewardWatches } = setup();
    const available = await f.run('watch', { reward: 'reward 12' });
    expect(available).toMatchObject({ tone: 'info', private: true });
    expect(available.text).toContain('available now');
    const unknown = await f.run('watch', { reward: '999' });
    expect(unknown).toMatchObject({ tone: 'error', private: true });
    for (const bad of ['reward abc', '<!channel>', '-3', '2.5']) {
      const refused = await f.run('watch', { reward: bad });
      expect(refused, bad).toMatchObject({ tone: 'error', private: true });
      expect(refused.text).toContain('whole number');
    }
    expect(await rewardWatches.ofUser(discordChannel, 'U1')).toEqual([]);
  });

  test(`a member may watch ${rewardWatchesPerUser} rewards; the next is refused with how to end one`, async () => {
    const rewards = Array.from({ length: rewardWatchesPerUser + 1 }, (_, i) => soldOut(500 + i));
    const { f, rewardWatches } = setup(rewards);
    for (const reward of rewards.slice(0, rewardWatchesPerUser)) {
      expect((await f.run('watch', { reward: String(reward.id) })).tone).toBe('success');
    }
    const full = await f.run('watch', { reward: String(500 + rewardWatchesPerUser) });
    expect(full).toMatchObject({ tone: 'error', private: true });
    expect(full.text).toContain('/unwatch reward <id>');
    expect(await rewardWatches.ofUser(discordChannel, 'U1')).toHaveLength(rewardWatchesPerUser);
    // Another member still may.
    const other = await f.run('watch', { reward: '500' }, { user: { id: 'U2', displayName: 'Bob' } });
    expect(other.tone).toBe('success');
  });

  test('German answers; an uninstall removes the workspace watches and its list entry', async () => {
    const { f, rewardWatches, store } = setup();
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    expect((await f.run('watch', { reward: '301' })).text).toContain('Vorgemerkt');
    const elsewhere = { platform: 'slack' as const, workspaceId: 'T9' };
    await rewardWatches.add(elsewhere, {
      userId: 'U5',
      channelId: 'C5',
      project: 'solar-kiosk',
      rewardId: 301,
    });
    expect(await rewardWatches.removeWorkspace(discordChannel)).toBe(1);
    expect((await rewardWatches.watchersOf('solar-kiosk', 301)).map((w) => w.userId)).toEqual(['U5']);
    expect(
      await store.get('settings/reward-watch/discord:G1', (await import('zod')).z.unknown()),
    ).toBeUndefined();
  });
});
