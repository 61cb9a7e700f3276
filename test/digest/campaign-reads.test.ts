import { describe, expect, it } from 'vitest';
import { createCampaignSettings, createSubscriptionStore } from '../../src/core/index.js';
import { createCampaignWatch, createRollCallJournal } from '../../src/digest/index.js';
import { defaultGoalPaceOptions } from '../../src/domain/goal-pace.js';
import { silentLogger } from '../../src/domain/logger.js';
import { withChangeStamp } from '../../src/lib/change-stamp.js';
import { countedStore } from '../../src/lib/counted-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { ManualClock } from '../support/manual-clock.js';
import { aProject } from './campaign-fixtures.js';

const project = 'solar-kiosk';
const general = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' } as const;

describe('campaign checks: the channels and their settings kept from round to round', () => {
  it('a round reads only the change stamp while it holds; a /deadline set is read at the next round', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 29, 12));
    let reads = 0;
    const store = countedStore(memoryStore(), (operation) => {
      if (operation === 'read') reads += 1;
    });
    let stamps = 0;
    const settingsStore = withChangeStamp(store, 'settings/stamp', () => `stamp-${++stamps}`);
    const subscriptions = createSubscriptionStore(settingsStore, { clock });
    const campaign = createCampaignSettings(settingsStore);
    await subscriptions.subscribe(general, project, ['milestones', 'supporters'], 'admin');
    const readModel = new FakeReadModel({
      clock,
      projects: [{ project: aProject({ link_caption: project }) }],
    });
    const watch = createCampaignWatch({
      readModel,
      subscriptions,
      campaign,
      journal: createRollCallJournal(memoryStore()),
      store: memoryStore(),
      localeFor: async () => 'en',
      timeZoneFor: async () => 'UTC',
      post: async () => ({ kind: 'posted' }) as never,
      clock,
      logger: silentLogger,
      projects: () => [project],
      goalPace: defaultGoalPaceOptions,
      rollCall: { weekday: 1, minuteOfDay: 600 },
      settingsStamp: { store: settingsStore, key: 'settings/stamp' },
    });

    reads = 0;
    await watch.runNow();
    // The stamp, then the subscription index and record, the deadline and the roll-call setting.
    expect(reads).toBeGreaterThan(1);
    reads = 0;
    await watch.runNow();
    expect(reads).toBe(1);
    expect(readModel.calls).toEqual([]);

    await campaign.setDeadline(general, project, {
      date: '2026-12-31',
      timeZone: 'UTC',
      endsAt: Date.UTC(2027, 0, 1),
    });
    reads = 0;
    await watch.runNow();
    expect(reads).toBeGreaterThan(1);
    // The deadline was seen: the check read the project's figures to judge the pace.
    expect(readModel.calls.length).toBeGreaterThan(0);
  });
});
