import { describe, expect, test } from 'vitest';
import { createLowStockSettings } from '../../src/core/settings/low-stock-settings.js';
import { discordChannel } from '../support/core-fixture.js';
import { fixtureWithSetting } from './settings-fixture.js';

function setup() {
  const { f, settings: lowStock } = fixtureWithSetting('lowStock', createLowStockSettings);
  return { f, lowStock };
}

describe('/lowstock', () => {
  test('a number sets the channel threshold, off removes it, confirmed privately in the channel language', async () => {
    const { f, lowStock } = setup();
    expect(await lowStock.thresholdOf(discordChannel)).toBeUndefined();
    const set = await f.run('lowstock', { threshold: ' 5 ' }, { canAdminister: true });
    expect(set).toMatchObject({ tone: 'success', private: true });
    expect(set.text).toContain('down to 5 items or fewer');
    expect(await lowStock.thresholdOf(discordChannel)).toBe(5);
    await f.settings.setLocale(discordChannel, 'channel', 'de');
    const off = await f.run('lowstock', { threshold: 'OFF' }, { canAdminister: true });
    expect(off.text).toContain('Knapp-Hinweise aus');
    expect(await lowStock.thresholdOf(discordChannel)).toBeUndefined();
  });

  test('admins only; a count out of range or not a whole number is refused with the range, hostile text inert', async () => {
    const { f, lowStock } = setup();
    const refused = await f.run('lowstock', { threshold: '5' }, { canAdminister: false });
    expect(refused).toMatchObject({ tone: 'error', private: true });
    expect(await lowStock.thresholdOf(discordChannel)).toBeUndefined();
    for (const given of ['0', '101', '2.5', '-3', 'five', '1e1']) {
      const bad = await f.run('lowstock', { threshold: given }, { canAdminister: true });
      expect(bad, given).toMatchObject({ tone: 'error', private: true });
      expect(bad.text).toContain('from 1 to 100');
    }
    const hostile = await f.run('lowstock', { threshold: '<!channel>\n@everyone' }, { canAdminister: true });
    expect(hostile.text).not.toContain('\n');
    expect(await lowStock.thresholdOf(discordChannel)).toBeUndefined();
  });

  test('/subscriptions shows the threshold of a channel that gets reward notices', async () => {
    const { f, lowStock } = setup();
    await f.subscriptions.subscribe(discordChannel, 'solar-kiosk', ['rewards'], 'U1');
    expect((await f.run('subscriptions', {})).text).toContain('Low-stock notices: off (/lowstock <n>)');
    await lowStock.set(discordChannel, 3);
    expect((await f.run('subscriptions', {})).text).toContain('Low-stock notices: at 3 left');
  });
});
