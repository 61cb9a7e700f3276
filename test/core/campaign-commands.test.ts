import { describe, expect, test } from 'vitest';
import { createCampaignSettings } from '../../src/core/settings/campaign-settings.js';
import { discordChannel } from '../support/core-fixture.js';
import { fixtureWithSetting } from './settings-fixture.js';

// The fixture's clock stands at 1 January 2026, 00:00 UTC; the channel's clock is UTC.
function setup() {
  const { f, settings: campaign } = fixtureWithSetting('campaign', createCampaignSettings);
  return { f, campaign };
}

describe('/deadline', () => {
  test('a day sets the end of it on the channel’s clock, off clears it, in the channel’s language', async () => {
    const { f, campaign } = setup();
    const set = await f.run('deadline', { date: '2026-01-31' }, { canAdminister: true });
    expect(set).toMatchObject({ tone: 'success', private: true });
    expect(set.text).toContain('Campaign end for solar-kiosk: Jan 31, 2026');
    expect(set.text).toContain('the last 24 hours');
    expect(await campaign.deadlineOf(discordChannel, 'solar-kiosk')).toEqual({
      date: '2026-01-31',
      timeZone: 'UTC',
      endsAt: Date.UTC(2026, 1, 1),
    });
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    const off = await f.run('deadline', { date: 'OFF' }, { canAdminister: true });
    expect(off.text).toContain('Kampagnenende für solar-kiosk gelöscht');
    expect(await campaign.deadlineOf(discordChannel, 'solar-kiosk')).toBeUndefined();
  });

  test('admins only; not a calendar day, or a day over, is refused with what to type; hostile text inert', async () => {
    const { f, campaign } = setup();
    expect(await f.run('deadline', { date: '2026-01-31' })).toMatchObject({ tone: 'error', private: true });
    for (const given of ['2026-02-30', '31.01.2026', 'tomorrow', '2026-1-31']) {
      const bad = await f.run('deadline', { date: given }, { canAdminister: true });
      expect(bad.text, given).toContain('YYYY-MM-DD');
    }
    const past = await f.run('deadline', { date: '2025-12-31' }, { canAdminister: true });
    expect(past.text).toContain('is over already');
    const hostile = await f.run('deadline', { date: '<!channel>\n@everyone' }, { canAdminister: true });
    expect(hostile.text).not.toContain('\n');
    expect(await campaign.deadlineOf(discordChannel, 'solar-kiosk')).toBeUndefined();
  });
});

describe('/rollcall', () => {
  test('weekly or monthly turns it on from now (a switch keeps the start), off turns it off; admins only', async () => {
    const { f, campaign } = setup();
    expect(await f.run('rollcall', { cadence: 'weekly' })).toMatchObject({ tone: 'error' });
    const on = await f.run('rollcall', { cadence: 'weekly' }, { canAdminister: true });
    expect(on.text).toContain('Roll-call on: every week');
    const since = (await campaign.rollCallOf(discordChannel))?.since;
    f.clock.advance(3_600_000);
    await f.run('rollcall', { cadence: 'Monthly' }, { canAdminister: true });
    expect(await campaign.rollCallOf(discordChannel)).toEqual({ cadence: 'monthly', since });
    const bad = await f.run('rollcall', { cadence: 'daily' }, { canAdminister: true });
    expect(bad).toMatchObject({ tone: 'error', private: true });
    await f.run('rollcall', { cadence: 'off' }, { canAdminister: true });
    expect(await campaign.rollCallOf(discordChannel)).toBeUndefined();
  });

  test('/subscriptions shows the end per project with milestones and the roll-call with supporters', async () => {
    const { f } = setup();
    await f.subscriptions.subscribe(discordChannel, 'solar-kiosk', ['milestones', 'supporters'], 'U1');
    const before = (await f.run('subscriptions', {})).text;
    expect(before).toContain('Goal-pace alerts for solar-kiosk: off (/deadline <YYYY-MM-DD>)');
    expect(before).toContain('Roll-call: off (/rollcall weekly|monthly)');
    await f.run('deadline', { date: '2026-03-01' }, { canAdminister: true });
    await f.run('rollcall', { cadence: 'monthly' }, { canAdminister: true });
    const after = (await f.run('subscriptions', {})).text;
    expect(after).toContain('Goal-pace alerts for solar-kiosk: campaign ends Mar 1, 2026');
    expect(after).toContain('Roll-call: monthly');
  });
});
