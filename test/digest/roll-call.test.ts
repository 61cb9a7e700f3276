/**
 * The roll-call's rules on a virtual clock: when a period falls due on the channel's clock, every supporter the
 * journal saw named once (the rest of a long list in the message's thread), a support dropped meanwhile never
 * thanked, and a restart or a second replica on the same store posting nothing twice. Posts go through the real
 * delivery pipeline to the scripted platforms of the digest's scheduler tests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createCampaignSettings } from '../../src/core/index.js';
import { createCampaignWatch, createRollCallJournal, latestRollCall } from '../../src/digest/index.js';
import type { FundbotEvent } from '../../src/domain/events.js';
import { defaultGoalPaceOptions } from '../../src/domain/goal-pace.js';
import { silentLogger } from '../../src/domain/logger.js';
import { memoryStore } from '../../src/lib/store.js';
import { startPipeline } from '../delivery/pipeline-harness.js';
import { buildEvent } from '../support/event-builders.js';
import { general, setup, stopSchedulers } from './helpers/scheduler-setup.js';

const project = 'solar-kiosk';
// Monday 23 November 2026, 10:00 in Berlin (UTC+1) = 09:00 UTC.
const monday = Date.UTC(2026, 10, 23, 9, 0);
const schedule = { weekday: 1, minuteOfDay: 10 * 60 };

const supporter = (n: number, at: number, name = `Backer ${n}`): FundbotEvent =>
  buildEvent.supporter({
    id: `supporter:${n}`,
    project,
    occurredAt: at,
    detectedAt: at,
    displayName: name,
    supporterCount: null,
    fundingTotal: null,
    entryKey: `key-${n}`,
  });

afterEach(stopSchedulers);

describe('latestRollCall', () => {
  it('is the last weekday at the time on the channel’s clock, or the 1st of the month', () => {
    expect(latestRollCall(monday, 'Europe/Berlin', 'weekly', schedule)).toEqual({
      id: 'weekly-2026-11-23',
      cut: monday,
    });
    // A minute before: last week's.
    expect(latestRollCall(monday - 60_000, 'Europe/Berlin', 'weekly', schedule).id).toBe('weekly-2026-11-16');
    // In New York it is still 04:00 on Monday: last week's there.
    expect(latestRollCall(monday, 'America/New_York', 'weekly', schedule).id).toBe('weekly-2026-11-16');
    expect(latestRollCall(monday, 'Europe/Berlin', 'monthly', schedule)).toEqual({
      id: 'monthly-2026-11-01',
      cut: Date.UTC(2026, 10, 1, 9, 0),
    });
    expect(latestRollCall(Date.UTC(2026, 11, 1, 8, 59), 'Europe/Berlin', 'monthly', schedule).id).toBe(
      'monthly-2026-11-01',
    );
  });
});

describe('the roll-call', () => {
  it('names every supporter since it was turned on, once, the rest in its thread, none dropped', async () => {
    const s = setup(monday - 6 * 24 * 3_600_000);
    s.subscriptions.add(project, general, ['supporters']);
    const store = memoryStore();
    const campaign = createCampaignSettings(store);
    const journal = createRollCallJournal(store);
    await campaign.setRollCall(general, { cadence: 'weekly', since: s.clock.now() });
    // 60 supporters over the week with long names (they do not fit one message); one support fails later.
    const events = Array.from({ length: 60 }, (_, i) =>
      supporter(i, s.clock.now() + (i + 1) * 3_600_000, `Backer ${i} ${'@everyone '.repeat(3)}`),
    );
    await journal.record(project, events);
    await journal.record(project, events.slice(0, 10)); // offered again: recognised
    await journal.record(project, [
      {
        type: 'support-dropped',
        id: 'dropped:7',
        project,
        occurredAt: 0,
        detectedAt: s.clock.now() + 100 * 3_600_000,
        originalEventId: 'supporter:7',
        entryKey: 'key-7',
        displayName: 'Backer 7',
      },
    ]);

    const watch = async () => {
      const pipeline = await startPipeline({
        posters: [s.poster.discord, s.poster.slack],
        clock: s.clock,
        store: s.store,
      });
      return {
        pipeline,
        watch: createCampaignWatch({
          readModel: s.readModel,
          subscriptions: s.subscriptions,
          campaign,
          journal,
          store,
          localeFor: async () => 'en',
          timeZoneFor: async () => 'Europe/Berlin',
          post: (request) => pipeline.delivery.postScheduled(request),
          clock: s.clock,
          logger: silentLogger,
          projects: () => [project],
          goalPace: defaultGoalPaceOptions,
          rollCall: schedule,
        }),
      };
    };
    const first = await watch();
    await first.watch.runNow();
    expect(s.poster.posted).toHaveLength(0); // not yet Monday 10:00

    s.clock.set(monday + 30_000);
    await first.watch.runNow();
    await first.pipeline.settle();
    const [parent, ...thread] = s.poster.posted;
    expect(parent?.message.title).toBe('🙏 Thank you! 59 new supporters since Nov 17, 2026');
    expect(parent?.message.text).toContain('Together you bring our total to');
    expect(thread.length).toBeGreaterThan(0);
    for (const reply of thread) expect(reply.thread).toBeDefined();
    const named = [parent, ...thread].map((p) => JSON.stringify(p?.message)).join(' ');
    for (let i = 0; i < 60; i += 1) {
      if (i === 7) expect(named).not.toContain('"Backer 7 ');
      else expect(named).toContain(`Backer ${i} `);
    }

    // A restart (a new pipeline and watch on the same stores) checks again: nothing more.
    const posts = s.poster.posted.length;
    const second = await watch();
    await second.watch.runNow();
    await second.pipeline.settle();
    expect(s.poster.posted).toHaveLength(posts);

    // The next week names only the supporter who came after the cut.
    await journal.record(project, [supporter(100, monday + 60_000, 'Late Backer')]);
    s.clock.set(monday + 7 * 24 * 3_600_000 + 30_000);
    await second.watch.runNow();
    await second.pipeline.settle();
    const last = s.poster.posted.at(-1);
    expect(last?.message.title).toBe('🙏 Thank you! 1 new supporter since Nov 23, 2026');
    expect(JSON.stringify(last?.message)).toContain('Late Backer');
    await first.pipeline.stop();
    await second.pipeline.stop();
  });
});
