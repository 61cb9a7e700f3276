import { getTasks } from 'node-cron';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliveryLedger } from '../../src/delivery/delivery-ledger.js';
import type { CronLike } from '../../src/digest/index.js';
import type { KeyValueStore } from '../../src/lib/store.js';
import { missingScope } from '../support/fake-read-model.js';
import { DAY, HOUR } from './campaign-fixtures.js';
import {
  berlinNine,
  broken,
  channel,
  general,
  MINUTE,
  setup,
  stopSchedulers,
  team,
} from './helpers/scheduler-setup.js';

afterEach(stopSchedulers);

describe('createDigestScheduler', () => {
  it('sends nothing before the local time and the digest to every subscribed channel at it', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10) - MINUTE);
    const digest = scheduler();
    expect((await digest.runNow()).sent).toEqual([]);
    expect(poster.posted).toEqual([]);

    clock.advance(MINUTE);
    const report = await digest.runNow();
    expect(report.date).toBe('2026-03-10');
    expect(poster.channels().sort()).toEqual(['general', 'team']);
    const [toGeneral, toTeam] = ['general', 'team'].map((c) => poster.posted.find((p) => p.channel === c)!);
    expect(toGeneral?.message.title).toBe('Daily digest: Solar Kiosk');
    expect(toTeam?.message.title).toBe('Tagesübersicht: Solar Kiosk');
    expect(toGeneral?.key).toBe('digest:solar-kiosk:discord:guild-1:general:2026-03-10');
    expect(toGeneral?.message.image).toMatchObject({
      kind: 'attachment',
      filename: 'funding-solar-kiosk-2026-03-10.png',
    });
  });

  it('sends once per channel per day, and again the next day', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10));
    const digest = scheduler();
    await digest.runNow();
    clock.advance(HOUR);
    await digest.runNow();
    clock.advance(10 * HOUR);
    await digest.runNow();
    expect(poster.posted).toHaveLength(2);

    clock.set(berlinNine(11));
    await digest.runNow();
    expect(poster.posted).toHaveLength(4);
    expect(poster.posted.slice(2).every((p) => p.key.endsWith(':2026-03-11'))).toBe(true);
  });

  it('only sends to channels subscribed to the digest', async () => {
    const { poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.add('solar-kiosk', channel('wall-only'), ['wall']).add('other-project', channel('other'));
    await scheduler().runNow();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
  });

  it('sends a missed digest on start later the same day', async () => {
    const { poster, scheduler } = setup(berlinNine(10) + 6 * HOUR);
    await scheduler().sendMissedOnStart();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
  });

  it('does not send yesterday’s missed digest on a start the next morning', async () => {
    // Down from 08:00 on the 10th until 08:00 on the 11th (before 09:00).
    const { poster, scheduler } = setup(berlinNine(11) - HOUR);
    const report = await scheduler().sendMissedOnStart();
    expect(report).toEqual({ date: '2026-03-11', sent: [], failed: [] });
    expect(poster.posted).toEqual([]);
  });

  it('sends the first digest after subscribing at the next scheduled time, not at the next check or restart', async () => {
    // Subscribed at 15:00 on the 10th, six hours after that day's digest time.
    const subscribedAt = berlinNine(10) + 6 * HOUR;
    const { clock, poster, subscriptions, scheduler } = setup(subscribedAt);
    subscriptions.subscriptions.splice(0);
    subscriptions.add('solar-kiosk', general, ['supporters', 'digest'], subscribedAt);
    const first = scheduler();
    clock.advance(5 * MINUTE);
    await first.runNow(); // the hourly check
    await first.stop();
    clock.advance(HOUR);
    await scheduler().sendMissedOnStart(); // a plain restart
    expect(poster.posted).toEqual([]);

    clock.set(berlinNine(11) - MINUTE);
    const next = scheduler();
    await next.runNow();
    expect(poster.posted).toEqual([]);
    clock.set(berlinNine(11));
    await next.runNow();
    expect(poster.posted.map((p) => p.key)).toEqual([
      'digest:solar-kiosk:discord:guild-1:general:2026-03-11',
    ]);
  });

  it('counts when the digest kind was added, not when the channel first subscribed to anything', async () => {
    const { poster, subscriptions, scheduler } = setup(berlinNine(10) + 6 * HOUR);
    subscriptions.subscriptions.splice(0);
    subscriptions.subscriptions.push({
      project: 'solar-kiosk',
      channel: general,
      kinds: ['supporters', 'digest'],
      createdBy: 'admin',
      createdAt: berlinNine(1),
      kindsAddedAt: { supporters: berlinNine(1), digest: berlinNine(10) + 5 * HOUR },
    });
    await scheduler().sendMissedOnStart();
    expect(poster.posted).toEqual([]);
  });

  it('sends today’s digest to a channel that subscribed before today’s time, even after a restart', async () => {
    const { poster, subscriptions, scheduler } = setup(berlinNine(10) + 2 * HOUR);
    subscriptions.subscriptions.splice(0);
    subscriptions.add('solar-kiosk', general, ['digest'], berlinNine(10) - HOUR);
    await scheduler().sendMissedOnStart();
    expect(poster.channels()).toEqual(['general']);
  });

  it('never sends twice across a restart with the same store', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10));
    const first = scheduler();
    await first.runNow();
    await first.stop();
    clock.advance(2 * HOUR);
    const second = scheduler();
    await second.sendMissedOnStart();
    await second.runNow();
    expect(poster.posted).toHaveLength(2);
  });

  it("records each digest in the core's delivery ledger, keyed by (project, channel, local date)", async () => {
    const { clock, store, poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.subscriptions.unshift({
      project: 'solar-kiosk',
      channel: broken,
      kinds: ['digest'],
      createdBy: 'admin',
      createdAt: 0,
    });
    poster.failing.add('broken');
    await scheduler({ maxAttempts: 2 }).runNow();
    const ledger = createDeliveryLedger(store, { prefix: 'digest/delivery/' });
    const id = 'digest:solar-kiosk:2026-03-10';
    expect(await ledger.get({ id, channel: general })).toMatchObject({ state: 'posted' });
    expect(await ledger.get({ id, channel: team })).toMatchObject({ state: 'posted' });
    // A plain failure may have posted: the record stays in doubt, so the retry reuses the key.
    expect(await ledger.get({ id, channel: broken })).toMatchObject({ state: 'attempting' });
    clock.advance(HOUR);
    await scheduler({ maxAttempts: 2 }).runNow();
    expect(await ledger.get({ id, channel: broken })).toMatchObject({ state: 'abandoned' });
    expect(await ledger.get({ id: 'digest:solar-kiosk:2026-03-11', channel: general })).toBeUndefined();
  });

  it('retries a post that was not confirmed before a crash with the same idempotency key', async () => {
    const { clock, store, poster, scheduler } = setup(berlinNine(10));
    // The process "dies" after posting, before the sent marker is written.
    const crashingStore: KeyValueStore = {
      ...store,
      get: (key, schema) => store.get(key, schema),
      set: async (key, value, ttl) => {
        if ((value as { state?: string }).state === 'posted') throw new Error('process killed');
        return store.set(key, value, ttl);
      },
    };
    await scheduler({ store: crashingStore }).runNow();
    expect(poster.posted).toHaveLength(2);

    clock.advance(10 * MINUTE);
    await scheduler().sendMissedOnStart();
    expect(poster.posted).toHaveLength(4);
    const keys = poster.posted.filter((p) => p.channel === 'general').map((p) => p.key);
    expect(keys[0]).toBe(keys[1]);

    await scheduler().sendMissedOnStart();
    expect(poster.posted).toHaveLength(4);
  });

  it('keeps posting to the other channels when one fails, and retries the failed one later', async () => {
    const { clock, poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.subscriptions.unshift({
      project: 'solar-kiosk',
      channel: broken,
      kinds: ['digest'],
      createdBy: 'admin',
      createdAt: 0,
    });
    poster.failing.add('broken');
    const digest = scheduler({ maxAttempts: 2 });

    const report = await digest.runNow();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
    expect(report.failed).toEqual(['solar-kiosk discord:guild-1:broken']);

    clock.advance(HOUR);
    await digest.runNow();
    clock.advance(HOUR);
    await digest.runNow();
    // Two attempts, then the day is given up; the healthy channels got exactly one digest.
    expect(poster.attempts.filter((c) => c === 'broken')).toHaveLength(2);
    expect(poster.posted).toHaveLength(2);

    poster.failing.delete('broken');
    clock.set(berlinNine(11));
    await digest.runNow();
    expect(poster.channels().filter((c) => c === 'broken')).toHaveLength(1);
  });

  it('skips a project that cannot be read without spending attempts, and sends it once it can', async () => {
    const { clock, poster, readModel, scheduler } = setup(berlinNine(10));
    readModel.failWith('solar-kiosk', 'project', missingScope('project'));
    const digest = scheduler({ maxAttempts: 1 });
    await digest.runNow();
    expect(poster.attempts).toEqual([]);

    readModel.clearFailure('solar-kiosk', 'project');
    clock.advance(HOUR);
    await digest.runNow();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
  });

  it('builds the digest once per project however many channels want it', async () => {
    const { poster, readModel, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.add('solar-kiosk', channel('third'));
    await scheduler().runNow();
    expect(poster.posted).toHaveLength(3);
    expect(readModel.callsOf('project').filter((call) => call.project === 'solar-kiosk')).toHaveLength(1);
  });

  it('shares one run between overlapping calls', async () => {
    const { poster, scheduler } = setup(berlinNine(10));
    const digest = scheduler();
    await Promise.all([digest.runNow(), digest.sendMissedOnStart(), digest.runNow()]);
    expect(poster.posted).toHaveLength(2);
  });

  it('rejects an unknown time zone and a malformed time with a fix', () => {
    const { scheduler } = setup(berlinNine(10));
    expect(() => scheduler({ timeZone: 'Europe/Berlinn' })).toThrow(/IANA name/);
    expect(() => scheduler({ time: '9am' })).toThrow(/HH:MM/);
  });

  it('schedules an hourly check at the configured minute in the time zone, which runs the digest', async () => {
    const { poster, scheduler } = setup(berlinNine(10) + 30 * MINUTE);
    const scheduled: { expression: string; options: unknown; task: () => unknown; destroyed: boolean }[] = [];
    const cron: CronLike = {
      schedule(expression, task, options) {
        const entry = { expression, options, task, destroyed: false };
        scheduled.push(entry);
        return {
          destroy: () => {
            entry.destroyed = true;
          },
        };
      },
    };
    const digest = scheduler({ cron, time: '08:30' });
    digest.start();
    digest.start();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({
      expression: '5 30 * * * *',
      options: { timezone: 'Europe/Berlin' },
    });

    await scheduled[0]?.task();
    expect(poster.posted).toHaveLength(2);
    await digest.stop();
    expect(scheduled[0]?.destroyed).toBe(true);
  });

  it('leaves no node-cron task and no timer behind after stop()', async () => {
    const { scheduler } = setup(berlinNine(10));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const tasksBefore = getTasks().size;
    const timersBefore = timers();

    const digest = scheduler();
    digest.start();
    expect(getTasks().size).toBe(tasksBefore + 1);
    // The measurement sees node-cron's timer while the task runs.
    expect(timers()).toBeGreaterThan(timersBefore);
    await digest.stop();

    expect(getTasks().size).toBe(tasksBefore);
    expect(timers()).toBe(timersBefore);
  });

  it('keeps markers only for a few days', async () => {
    const { store, scheduler } = setup(berlinNine(10));
    const ttls: (number | undefined)[] = [];
    await scheduler({
      store: {
        ...store,
        get: (key, schema) => store.get(key, schema),
        set: (key, value, ttl) => {
          ttls.push(ttl);
          return store.set(key, value, ttl);
        },
      },
    }).runNow();
    expect(ttls.length).toBeGreaterThan(0);
    expect(ttls.every((ttl) => ttl !== undefined && ttl >= 2 * DAY && ttl <= 7 * DAY)).toBe(true);
  });
});
