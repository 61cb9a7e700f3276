/**
 * The goal-pace check on a virtual clock, through the real delivery pipeline: two replicas on one store with
 * shared claims judge the same crossing at once and the channel gets ONE alert; later checks, on either, say
 * nothing more until the pace crosses back. A channel without an end set is never told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCampaignSettings } from '../../src/core/index.js';
import { createCampaignWatch, createRollCallJournal } from '../../src/digest/index.js';
import { channelKey } from '../../src/domain/channels.js';
import { defaultGoalPaceOptions } from '../../src/domain/goal-pace.js';
import { silentLogger } from '../../src/domain/logger.js';
import { type ClaimEntry, memoryClaims } from '../../src/lib/coordination/claims.js';
import { startPipeline } from '../delivery/pipeline-harness.js';
import { aProject } from './campaign-fixtures.js';
import { channel, general, setup, stopSchedulers } from './helpers/scheduler-setup.js';

const project = 'solar-kiosk';
const hour = 3_600_000;
const now = Date.UTC(2026, 10, 29, 12);
const point = (hoursAgo: number, funding: number, supporters: number) => ({
  at: now - hoursAgo * hour,
  funding,
  supporters,
  rewardsSold: {},
});

afterEach(stopSchedulers);

describe('goal-pace alerts across replicas', () => {
  it('one alert per crossing whichever replica judges it, none without an end', async () => {
    const s = setup(now);
    const quiet = channel('quiet');
    s.subscriptions.add(project, general, ['milestones']).add(project, quiet, ['milestones']);
    // €1,000 a day (each half alike: one figure, no spread) from 20 supports, €6,000 needed in 10 days: on track.
    s.readModel.addProject({
      project: aProject({ link_caption: project, current_funding: 4_000, supporter_count: 30 }),
      history: [point(30, 3_000, 10), point(12, 3_500, 20)],
    });
    const campaign = createCampaignSettings(s.store);
    await campaign.setDeadline(general, project, {
      date: '2026-12-08',
      timeZone: 'UTC',
      endsAt: now + 10 * 24 * hour,
    });
    // The channel was told "behind" before: this is a crossing.
    const stateKey = `pace-alerts/${project}/${channelKey(general)}`;
    await s.store.set(stateKey, {
      targetPercent: 100,
      deadline: now + 10 * 24 * hour,
      verdict: 'behind',
      alerts: 1,
    });

    const table = new Map<string, ClaimEntry>();
    const replica = async (id: string) => {
      const pipeline = await startPipeline({
        posters: [s.poster.discord, s.poster.slack],
        clock: s.clock,
        store: s.store,
        claims: memoryClaims(s.clock, id, table),
      });
      const watch = createCampaignWatch({
        readModel: s.readModel,
        subscriptions: s.subscriptions,
        campaign,
        journal: createRollCallJournal(s.store),
        store: s.store,
        localeFor: async () => 'en',
        timeZoneFor: async () => 'UTC',
        post: (request) => pipeline.delivery.postScheduled(request),
        clock: s.clock,
        logger: silentLogger,
        projects: () => [project],
        goalPace: defaultGoalPaceOptions,
        rollCall: { weekday: 1, minuteOfDay: 600 },
      });
      return { pipeline, watch };
    };
    const [a, b] = [await replica('replica-a'), await replica('replica-b')];
    // A replica that finds the other's claim waits for its record (on the virtual clock): time moves meanwhile.
    const both = async () => {
      const runs = Promise.all([a.watch.runNow(), b.watch.runNow()]);
      for (let step = 0; step < 3; step += 1) {
        s.clock.advance(10_000);
        await Promise.all([a.pipeline.settle(), b.pipeline.settle()]);
      }
      await runs;
    };
    await both();
    expect(s.poster.channels()).toEqual(['general']);
    expect(s.poster.posted[0]?.message.title).toBe('📈 On track for the goal');
    expect(s.poster.posted[0]?.message.text).toContain(
      'At the pace of the last 24 hours: €14,000 by Dec 9, 2026 (needed: €10,000).',
    );
    expect(await s.store.get(stateKey, z.any())).toMatchObject({
      verdict: 'on-track',
      alerts: 2,
    });

    s.clock.advance(5 * 60_000);
    await both();
    expect(s.poster.posted).toHaveLength(1);
    await Promise.all([a.pipeline.stop(), b.pipeline.stop()]);
  });
});
