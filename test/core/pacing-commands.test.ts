/**
 * /pacing and /quiet through the real command core: an admin sets them, /subscriptions
 * shows them, mistakes get a private answer that says what to type, and the real delivery
 * pipeline follows what the command stored.
 */
import { describe, expect, it } from 'vitest';
import type { OptionValue } from '../../src/core/command-core.js';
import { createPacingSettings } from '../../src/core/settings/pacing-settings.js';
import { quietWindowAt } from '../../src/delivery/placement.js';
import { runFor, startPipeline } from '../delivery/pipeline-harness.js';
import { ScriptedPoster } from '../delivery/scripted-poster.js';
import { t0 } from '../support/builders.js';
import { allText, buildContext, createCoreFixture, discordChannel } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { ManualClock } from '../support/manual-clock.js';

const admin = { canAdminister: true };
const minute = 60_000;

async function subscribed() {
  const f = createCoreFixture();
  await f.subscriptions.subscribe(discordChannel, 'solar-kiosk', ['supporters', 'wall', 'digest'], 'U1');
  return f;
}

describe('/pacing', () => {
  it('stores the mode for the kind, and /subscriptions shows each kind with its pacing and the quiet hours', async () => {
    const f = await subscribed();
    const before = allText(await f.run('subscriptions'));
    expect(before).toContain('supporters (auto), wall (live), and digest');
    expect(before).toContain('Quiet hours: off');

    const answer = await f.run('pacing', { kind: 'supporters', mode: 'batched', minutes: 15 }, admin);
    expect(answer.tone).toBe('success');
    expect(answer.private).toBe(true);
    expect(allText(answer)).toContain('supporters in this channel: batched every 15 min');
    expect(await createPacingSettings(f.store).get(discordChannel)).toEqual({
      kinds: { supporters: { mode: 'batched', intervalMs: 15 * minute } },
    });
    expect(allText(await f.run('subscriptions'))).toContain('supporters (batched every 15 min), wall (live)');
  });

  it('"all" sets every kind a channel can pace; digest only is shown as such', async () => {
    const f = await subscribed();
    expect((await f.run('pacing', { kind: 'all', mode: 'digest' }, admin)).tone).toBe('success');
    const pacing = await createPacingSettings(f.store).get(discordChannel);
    expect(Object.keys(pacing.kinds).sort()).toEqual(['blog', 'milestones', 'rewards', 'supporters', 'wall']);
    expect(allText(await f.run('subscriptions'))).toContain('supporters (digest only), wall (digest only)');
  });

  it('is for admins only, like /subscribe', async () => {
    const f = await subscribed();
    const answer = await f.run('pacing', { kind: 'supporters', mode: 'live' });
    expect(answer.tone).toBe('error');
    expect((await createPacingSettings(f.store).get(discordChannel)).kinds).toEqual({});
    expect((await f.run('quiet', { hours: '22:00-07:00' })).tone).toBe('error');
  });

  it('refuses what it cannot do and says what to type', async () => {
    const f = await subscribed();
    const live = await f.run('pacing', { kind: 'supporters', mode: 'live', minutes: 10 }, admin);
    expect(live.tone).toBe('error');
    expect(allText(live)).toContain('Minutes apply to batched only');
    expect(allText(live)).toContain('/pacing supporters batched 10');
    const zero = await f.run('pacing', { kind: 'wall', mode: 'batched', minutes: 0 }, admin);
    expect(allText(zero)).toContain('give 1 to 1440');
    const kind = await f.run('pacing', { kind: 'digest', mode: 'live' }, admin);
    expect(allText(kind)).toContain('supporters, wall, blog, milestones, rewards, all');
    const mode = await f.run('pacing', { kind: 'wall', mode: 'sometimes' }, admin);
    expect(allText(mode)).toContain('auto, live, batched, hourly, digest');
    expect((await createPacingSettings(f.store).get(discordChannel)).kinds).toEqual({});
  });

  it('answers in the channel language', async () => {
    const f = await subscribed();
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    const answer = await f.run('pacing', { kind: 'supporters', mode: 'hourly' }, admin);
    expect(allText(answer)).toContain('supporters in diesem Kanal: stündlich');
    const wrong = await f.run('quiet', { hours: '22 bis 7' }, admin);
    expect(allText(wrong)).toContain('ist keine Zeitspanne');
    expect(allText(await f.run('subscriptions'))).toContain('supporters (stündlich)');
  });
});

describe('/quiet', () => {
  it('sets quiet hours in a time zone, shows them, and switches them off', async () => {
    const f = await subscribed();
    const answer = await f.run('quiet', { hours: '22:00-07:00', timezone: 'europe/berlin' }, admin);
    expect(answer.tone).toBe('success');
    expect(allText(answer)).toContain('Quiet hours 22:00-07:00 Europe/Berlin');
    expect(allText(await f.run('subscriptions'))).toContain('Quiet hours: 22:00-07:00 Europe/Berlin');
    expect(allText(await f.run('quiet', { hours: 'off' }, admin))).toContain('Quiet hours are off');
    expect(allText(await f.run('subscriptions'))).toContain('Quiet hours: off');
  });

  it('refuses a malformed range, an empty one and an unknown time zone, with an example', async () => {
    const f = await subscribed();
    for (const hours of ['22:00', '25:00-07:00', '22:00 07:00']) {
      const answer = await f.run('quiet', { hours }, admin);
      expect(answer.tone).toBe('error');
      expect(allText(answer)).toContain('HH:MM-HH:MM, for example /quiet 22:00-07:00 Europe/Berlin');
    }
    expect(allText(await f.run('quiet', { hours: '08:00-08:00' }, admin))).toContain(
      'need a start and an end',
    );
    const zone = await f.run('quiet', { hours: '22:00-07:00', timezone: 'Mars/Olympus' }, admin);
    expect(allText(zone)).toContain('"Mars/Olympus" is not a time zone');
    expect((await createPacingSettings(f.store).get(discordChannel)).quiet).toBeUndefined();
  });

  it('reads the hours on the clock of the time zone', () => {
    // 2026-01-01 22:30 in Berlin is 21:30 UTC (winter time, UTC+1).
    const at = Date.UTC(2026, 0, 1, 21, 30);
    const berlin = { startMinute: 22 * 60, endMinute: 7 * 60, timeZone: 'Europe/Berlin' };
    expect(quietWindowAt(berlin, at)).toEqual({
      start: Date.UTC(2026, 0, 1, 21),
      end: Date.UTC(2026, 0, 2, 6),
    });
    expect(quietWindowAt(berlin, Date.UTC(2026, 0, 1, 20, 59))).toBeUndefined();
    expect(quietWindowAt({ startMinute: 22 * 60, endMinute: 7 * 60 }, at)).toBeUndefined();
  });
});

describe('the delivery pipeline follows what the commands stored', () => {
  const supporter = (n: number) =>
    buildEvent.supporter({
      id: `solar-kiosk:supporter:k${n}`,
      displayName: `Fan ${n}`,
      supporterCount: 100 + n,
    });

  /** The pipeline with its own core: commands write through the settings view it reads. */
  async function pipeline() {
    const clock = new ManualClock(t0);
    const poster = new ScriptedPoster('discord', clock);
    const h = await startPipeline({ posters: [poster], clock });
    await h.subscribe(discordChannel, ['supporters', 'wall', 'digest']);
    const run = (name: string, options: Record<string, OptionValue>) =>
      h.core.execute({ name, options, context: buildContext({ canAdminister: true }) });
    return { h, poster, run };
  }

  it('live after /pacing supporters live: every supporter at once, even a busy hour', async () => {
    const { h, poster, run } = await pipeline();
    expect((await run('pacing', { kind: 'supporters', mode: 'live' })).tone).toBe('success');
    for (let n = 1; n <= 8; n += 1) await h.offer(supporter(n));
    expect(poster.messages).toHaveLength(8);
  });

  it('held during /quiet hours and posted as one summary when they end', async () => {
    const { h, poster, run } = await pipeline();
    // t0 is 2026-01-01 00:00 UTC = 01:00 in Berlin: quiet from 00:30 to 02:00 Berlin time.
    expect((await run('quiet', { hours: '00:30-02:00', timezone: 'Europe/Berlin' })).tone).toBe('success');
    for (let n = 1; n <= 3; n += 1) await h.offer(supporter(n));
    expect(poster.messages).toHaveLength(0);
    await runFor(h, 59 * minute, minute);
    expect(poster.messages).toHaveLength(0);
    await runFor(h, 2 * minute, minute);
    expect(poster.messages).toHaveLength(1);
    expect(poster.messages[0]?.message.title).toContain('3 new supporters');
    expect(allText(poster.messages[0]!.message)).toContain('Held during quiet hours');
  });
});
