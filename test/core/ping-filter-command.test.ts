import { describe, expect, it } from 'vitest';
import { createCommandCore } from '../../src/core/create-command-core.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createNoticeRulesSettings } from '../../src/core/settings/notice-rules-settings.js';
import { createSettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { buildProject, t0 } from '../support/builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { ManualClock } from '../support/manual-clock.js';

const slack: ChannelRef = { platform: 'slack', workspaceId: 'T1', channelId: 'C1' };
const discord: ChannelRef = { platform: 'discord', workspaceId: '1', channelId: '2' };

function setup() {
  const store = memoryStore();
  const clock = new ManualClock(t0);
  const noticeRules = createNoticeRulesSettings(store);
  const subscriptions = createSubscriptionStore(store, { clock });
  const core = createCommandCore({
    readModel: new FakeReadModel({ clock, projects: [{ project: buildProject() }] }),
    subscriptions,
    settings: createSettingsStore(store),
    clock,
    version: 'test',
    noticeRules,
  });
  const run = (channel: ChannelRef, name: string, options: Record<string, string>, admin = true) =>
    core.execute({
      name,
      options,
      context: { user: { id: 'U1', displayName: 'A' }, channel, canAdminister: admin },
    });
  return { run, noticeRules, subscriptions };
}

describe('/ping and /filter', () => {
  it('admins only; the group kept by id with its kinds (milestones by default); off removes it', async () => {
    const h = setup();
    const refused = await h.run(slack, 'ping', { target: 'S0123ABCD' }, false);
    expect(refused.tone).toBe('error');
    expect(await h.noticeRules.get(slack)).toBeUndefined();
    const set = await h.run(slack, 'ping', { target: '<!subteam^S0123ABCD|@backers>' });
    expect(set.text).toContain('milestones notices only');
    expect(await h.noticeRules.get(slack)).toEqual({ ping: { target: 'S0123ABCD', kinds: ['milestones'] } });
    await h.run(discord, 'ping', { target: '<@&123456789012345678>', kinds: 'milestones rewards' });
    expect((await h.noticeRules.get(discord))?.ping?.kinds).toEqual(['milestones', 'rewards']);
    await h.run(slack, 'ping', { target: 'off' });
    expect(await h.noticeRules.get(slack)).toBeUndefined();
  });

  it('refuses @everyone, <!channel> and unknown kinds, saying what to give, the text echoed plain', async () => {
    const h = setup();
    const everyone = await h.run(discord, 'ping', { target: '@everyone' });
    expect(everyone.tone).toBe('error');
    expect(everyone.text).toContain('a role, as @role');
    const channel = await h.run(slack, 'ping', { target: '<!channel>' });
    expect(channel.text).toContain('a user group, as its ID');
    const kinds = await h.run(slack, 'ping', { target: 'S0123ABCD', kinds: 'milestones gossip' });
    expect(kinds.text).toContain('Unknown kinds "gossip"');
    expect(await h.noticeRules.get(slack)).toBeUndefined();
  });

  it('/filter wall allow|deny, milestones levels, off; shown in /subscriptions (German too)', async () => {
    const h = setup();
    await h.subscriptions.subscribe(slack, 'solar-kiosk', ['wall', 'milestones'], 'U1');
    expect((await h.run(slack, 'filter', { kind: 'wall', rule: 'deny Spam scam' })).tone).toBe('success');
    await h.run(slack, 'filter', { kind: 'milestones', rule: '50 100' });
    await h.run(slack, 'ping', { target: 'S0123ABCD' });
    const shown = await h.run(slack, 'subscriptions', {});
    expect(shown.text).toContain('Wall filter: never "spam", "scam"');
    expect(shown.text).toContain('Milestones: only 50% and 100%');
    expect(shown.text).toContain('Pings: the chosen group on milestones');
    expect((await h.run(slack, 'filter', { kind: 'wall', rule: 'maybe spam' })).tone).toBe('error');
    expect((await h.run(slack, 'filter', { kind: 'milestones', rule: 'half' })).tone).toBe('error');
    await h.run(slack, 'filter', { kind: 'wall', rule: 'off' });
    expect((await h.noticeRules.get(slack))?.wall).toBeUndefined();
    await h.run(slack, 'language', { locale: 'de', scope: 'channel' });
    expect((await h.run(slack, 'subscriptions', {})).text).toContain('Meilensteine: nur 50% und 100%');
  });
});
