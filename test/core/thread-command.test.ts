import { describe, expect, test } from 'vitest';
import { createDailyThreadSettings } from '../../src/core/settings/daily-thread-settings.js';
import { discordChannel } from '../support/core-fixture.js';
import { fixtureWithSetting } from './settings-fixture.js';

function setup() {
  const { f, settings: dailyThreads } = fixtureWithSetting('dailyThreads', createDailyThreadSettings);
  return { f, dailyThreads };
}

describe('/thread', () => {
  test('on and off change the channel setting, confirmed privately in the channel language', async () => {
    const { f, dailyThreads } = setup();
    const on = await f.run('thread', { mode: 'on' }, { canAdminister: true });
    expect(on).toMatchObject({ tone: 'success', private: true });
    expect(on.text).toContain('Daily thread on');
    expect(await dailyThreads.isOn(discordChannel)).toBe(true);
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    const off = await f.run('thread', { mode: 'OFF' }, { canAdminister: true });
    expect(off.text).toContain('Tages-Thread aus');
    expect(await dailyThreads.isOn(discordChannel)).toBe(false);
  });

  test('admins only; a wrong value is refused with the two choices, hostile text inert', async () => {
    const { f, dailyThreads } = setup();
    const refused = await f.run('thread', { mode: 'on' }, { canAdminister: false });
    expect(refused).toMatchObject({ tone: 'error', private: true });
    expect(await dailyThreads.isOn(discordChannel)).toBe(false);
    const bad = await f.run('thread', { mode: 'maybe\n@everyone' }, { canAdminister: true });
    expect(bad).toMatchObject({ tone: 'error', private: true });
    expect(bad.text).toContain('"on" or "off"');
    expect(bad.text).not.toContain('\n');
  });
});
