import { getTasks } from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createDeliveryLedger } from '../../src/delivery/delivery-ledger.js';
import type { CronLike } from '../../src/digest/index.js';
import { type KeyValueStore, namespaced } from '../../src/lib/store.js';
import { missingScope } from '../support/fake-read-model.js';
import { HOUR } from './campaign-fixtures.js';
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

/** Subscribes `channel` to the digest ahead of the others (its turn comes first). */
function subscribeFirst(subscriptions: ReturnType<typeof setup>['subscriptions'], channel: ChannelRef): void {
  subscriptions.subscriptions.unshift({
    project: 'solar-kiosk',
    channel,
    kinds: ['digest'],
    createdBy: 'admin',
    createdAt: 0,
  });
}

describe('createDigestScheduler', () => {
  it('sends nothing before the local time and the digest to every subscribed channel at it', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10) - MINUTE);
    const digest = await scheduler();
    expect((await digest.runNow()).sent).toEqual([]);
    expect(poster.posted).toEqual([]);

    clock.advance(MINUTE);
    const report = await digest.runNow();
    expect(report.date).toBe('2026-03-10');
    expect(poster.channels().sort()).toEqual(['general', 'team']);
    const [toGeneral, toTeam] = ['general', 'team'].map(
      (c) => poster.posted.find((p) => p.channel.channelId === c)!,
    );
    expect(toGeneral?.message.title).toBe('Daily digest: Solar Kiosk');
    expect(toTeam?.message.title).toBe('Tagesübersicht: Solar Kiosk');
    // The pipeline's delivery id (project, local date) in the channel: the platforms' idempotency key.
    expect(toGeneral?.key).toBe('digest:solar-kiosk:2026-03-10@discord:guild-1:general');
    expect(toGeneral?.message.image).toMatchObject({
      kind: 'attachment',
      filename: 'funding-solar-kiosk-2026-03-10.png',
    });
  });

  it('sends once per channel per day, and again the next day', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10));
    const digest = await scheduler();
    await digest.runNow();
    clock.advance(HOUR);
    await digest.runNow();
    clock.advance(10 * HOUR);
    await digest.runNow();
    expect(poster.posted).toHaveLength(2);

    clock.set(berlinNine(11));
    await digest.runNow();
    expect(poster.posted).toHaveLength(4);
    expect(poster.posted.slice(2).every((p) => p.key.startsWith('digest:solar-kiosk:2026-03-11@'))).toBe(
      true,
    );
  });

  it('only sends to channels subscribed to the digest', async () => {
    const { poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.add('solar-kiosk', channel('wall-only'), ['wall']).add('other-project', channel('other'));
    await (await scheduler()).runNow();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
  });

  it('sends a missed digest on start later the same day', async () => {
    const { poster, scheduler } = setup(berlinNine(10) + 6 * HOUR);
    await (await scheduler()).sendMissedOnStart();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
  });

  it('does not send yesterday’s missed digest on a start the next morning', async () => {
    // Down from 08:00 on the 10th until 08:00 on the 11th (before 09:00).
    const { poster, scheduler } = setup(berlinNine(11) - HOUR);
    const report = await (await scheduler()).sendMissedOnStart();
    expect(report).toEqual({ date: '2026-03-11', sent: [], failed: [], pending: [] });
    expect(poster.posted).toEqual([]);
  });

  it('sends the first digest after subscribing at the next scheduled time, not at the next check or restart', async () => {
    // Subscribed at 15:00 on the 10th, six hours after that day's digest time.
    const subscribedAt = berlinNine(10) + 6 * HOUR;
    const { clock, poster, subscriptions, scheduler } = setup(subscribedAt);
    subscriptions.subscriptions.splice(0);
    subscriptions.add('solar-kiosk', general, ['supporters', 'digest'], subscribedAt);
    const first = await scheduler();
    clock.advance(5 * MINUTE);
    await first.runNow(); // the hourly check
    await first.stop();
    clock.advance(HOUR);
    await (await scheduler()).sendMissedOnStart(); // a plain restart
    expect(poster.posted).toEqual([]);

    clock.set(berlinNine(11) - MINUTE);
    const next = await scheduler();
    await next.runNow();
    expect(poster.posted).toEqual([]);
    clock.set(berlinNine(11));
    await next.runNow();
    expect(poster.posted.map((p) => p.key)).toEqual([
      'digest:solar-kiosk:2026-03-11@discord:guild-1:general',
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
    await (await scheduler()).sendMissedOnStart();
    expect(poster.posted).toEqual([]);
  });

  it('sends today’s digest to a channel that subscribed before today’s time, even after a restart', async () => {
    const { poster, subscriptions, scheduler } = setup(berlinNine(10) + 2 * HOUR);
    subscriptions.subscriptions.splice(0);
    subscriptions.add('solar-kiosk', general, ['digest'], berlinNine(10) - HOUR);
    await (await scheduler()).sendMissedOnStart();
    expect(poster.channels()).toEqual(['general']);
  });

  it('never sends twice across a restart with the same store', async () => {
    const { clock, poster, scheduler } = setup(berlinNine(10));
    const first = await scheduler();
    await first.runNow();
    await first.stop();
    clock.advance(2 * HOUR);
    const second = await scheduler();
    await second.sendMissedOnStart();
    await second.runNow();
    expect(poster.posted).toHaveLength(2);
  });

  it("records each digest in the pipeline's delivery ledger, keyed by (project, local date) and channel", async () => {
    const { clock, store, poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscribeFirst(subscriptions, broken);
    poster.refuse('broken', 1);
    await (await scheduler()).runNow();
    const ledger = createDeliveryLedger(namespaced(store, 'deliveries/'), { prefix: 'notices/delivered/' });
    const id = 'digest:solar-kiosk:2026-03-10';
    expect(await ledger.get({ id, channel: general })).toMatchObject({ state: 'posted' });
    expect(await ledger.get({ id, channel: team })).toMatchObject({ state: 'posted' });
    // Refused before anything was posted: not in doubt, the next check simply tries again.
    expect(await ledger.get({ id, channel: broken })).toMatchObject({ state: 'failing' });
    clock.advance(HOUR);
    await (await scheduler()).runNow();
    expect(await ledger.get({ id, channel: broken })).toMatchObject({ state: 'posted' });
    expect(await ledger.get({ id: 'digest:solar-kiosk:2026-03-11', channel: general })).toBeUndefined();
  });

  it('a post whose confirmation was lost in a crash is found by a look after the restart, not posted again', async () => {
    const { clock, store, poster, scheduler, advance } = setup(berlinNine(10));
    // The process "dies" after posting, before the confirmation is written: its store refuses that write from
    // then on, so the process keeps it in memory (pending-confirmations.ts) and its run never finishes.
    let dead = true;
    const crashingStore: KeyValueStore = {
      ...store,
      get: (key, schema) => store.get(key, schema),
      set: async (key, value, ttl) => {
        if (dead && (value as { state?: string }).state === 'posted') throw new Error('process killed');
        return store.set(key, value, ttl);
      },
    };
    const crashedRun = (await scheduler({}, { store: crashingStore })).runNow();
    await vi.waitFor(() => expect(poster.posted).toHaveLength(2));

    clock.advance(10 * MINUTE);
    const report = await (await scheduler()).sendMissedOnStart();
    expect([...report.sent].sort()).toEqual([
      'solar-kiosk discord:guild-1:general',
      'solar-kiosk slack:guild-1:team',
    ]);
    expect(poster.posted).toHaveLength(2);
    expect(poster.discord.looks).toHaveLength(1);
    expect(poster.slack.looks).toHaveLength(1);

    await (await scheduler()).sendMissedOnStart();
    expect(poster.posted).toHaveLength(2);
    // The dead process's store answers again (only so the test can stop it): its kept confirmation changes nothing.
    dead = false;
    await advance(30_000);
    await crashedRun;
    expect(poster.posted).toHaveLength(2);
  });

  it('keeps posting to the other channels when one refuses, and tries the refused one at each hourly check', async () => {
    const { clock, poster, subscriptions, scheduler } = setup(berlinNine(10));
    subscribeFirst(subscriptions, broken);
    poster.refuse('broken', 3);
    const digest = await scheduler();

    const report = await digest.runNow();
    expect(poster.channels().sort()).toEqual(['general', 'team']);
    expect(report.failed).toEqual(['solar-kiosk discord:guild-1:broken']);

    clock.advance(HOUR);
    await digest.runNow();
    clock.advance(HOUR);
    await digest.runNow();
    // One try per check, nothing in doubt; the healthy channels got exactly one digest.
    expect(poster.attempts().filter((c) => c === 'broken')).toHaveLength(3);
    expect(poster.posted).toHaveLength(2);

    clock.set(berlinNine(11));
    await digest.runNow();
    expect(poster.channels().filter((c) => c === 'broken')).toHaveLength(1);
  });

  it('posts nothing for a project that cannot be read, and sends it once it can', async () => {
    const { clock, poster, readModel, scheduler, advance } = setup(berlinNine(10));
    readModel.failWith('solar-kiosk', 'project', missingScope('project'));
    const digest = await scheduler();
    // The run waits a while for the posts, then reports them still on their way; the lanes keep trying to build it, posting nothing.
    const run = digest.runNow();
    await advance(2 * MINUTE);
    expect(await run).toEqual({
      date: '2026-03-10',
      sent: [],
      failed: [],
      pending: ['solar-kiosk discord:guild-1:general', 'solar-kiosk slack:guild-1:team'],
    });
    expect(poster.attempts()).toEqual([]);

    readModel.clearFailure('solar-kiosk', 'project');
    await advance(10 * MINUTE);
    expect(poster.channels().sort()).toEqual(['general', 'team']);
    // The next hourly check finds it sent: nothing more is built or posted.
    clock.advance(HOUR);
    const calls = readModel.callsOf('project').length;
    expect((await digest.runNow()).sent).toHaveLength(2);
    expect(readModel.callsOf('project')).toHaveLength(calls);
    expect(poster.posted).toHaveLength(2);
  });

  it('builds the digest once per project however many channels want it', async () => {
    const { poster, readModel, subscriptions, scheduler } = setup(berlinNine(10));
    subscriptions.add('solar-kiosk', channel('third'));
    await (await scheduler()).runNow();
    expect(poster.posted).toHaveLength(3);
    expect(readModel.callsOf('project').filter((call) => call.project === 'solar-kiosk')).toHaveLength(1);
  });

  it('shares one run between overlapping calls', async () => {
    const { poster, scheduler } = setup(berlinNine(10));
    const digest = await scheduler();
    await Promise.all([digest.runNow(), digest.sendMissedOnStart(), digest.runNow()]);
    expect(poster.posted).toHaveLength(2);
  });

  it('rejects an unknown time zone and a malformed time with a fix', async () => {
    const { scheduler } = setup(berlinNine(10));
    await expect(scheduler({ timeZone: 'Europe/Berlinn' })).rejects.toThrow(/IANA name/);
    await expect(scheduler({ time: '9am' })).rejects.toThrow(/HH:MM/);
  });

  it('schedules a check every minute in the time zone, which runs the digest once and then hourly', async () => {
    const { clock, poster, readModel, scheduler } = setup(berlinNine(10) + 30 * MINUTE);
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
    const digest = await scheduler({ cron, time: '08:30' });
    digest.start();
    digest.start();
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]).toMatchObject({
      expression: '5 * * * * *',
      options: { timezone: 'Europe/Berlin' },
    });

    await scheduled[0]?.task();
    expect(poster.posted).toHaveLength(2);
    // The next minutes' ticks read nothing for a project checked today; an hour later they check again.
    const attempts = poster.attempts().length;
    clock.advance(MINUTE);
    await scheduled[0]?.task();
    expect(readModel.callsOf('project').filter((c) => c.project === 'solar-kiosk')).toHaveLength(1);
    clock.advance(HOUR);
    await scheduled[0]?.task();
    expect(poster.attempts()).toHaveLength(attempts);
    expect(poster.posted).toHaveLength(2);
    await digest.stop();
    expect(scheduled[0]?.destroyed).toBe(true);
  });

  it('leaves no node-cron task and no timer behind after stop()', async () => {
    const { scheduler } = setup(berlinNine(10));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const tasksBefore = getTasks().size;
    const timersBefore = timers();

    const digest = await scheduler();
    digest.start();
    expect(getTasks().size).toBe(tasksBefore + 1);
    // The measurement sees node-cron's timer while the task runs.
    expect(timers()).toBeGreaterThan(timersBefore);
    await digest.stop();

    expect(getTasks().size).toBe(tasksBefore);
    expect(timers()).toBe(timersBefore);
  });
});
