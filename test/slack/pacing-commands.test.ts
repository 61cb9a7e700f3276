/**
 * /fundbot pacing and /fundbot quiet: Slack gets the commands as subcommands of its one
 * command, from the same definition, through the real adapter and the real command
 * core against the fake Slack; /fundbot subscriptions shows the result.
 */
import { describe, expect, it } from 'vitest';
import { createCommandCore } from '../../src/core/index.js';
import type { ChannelRef, SubscriptionStore } from '../../src/core/ports.js';
import { createPacingSettings, type PacingSettings } from '../../src/core/settings/pacing-settings.js';
import { createSettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { memoryStore } from '../../src/lib/store.js';
import { buildProject } from '../support/builders.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { coreAdapterPerTest } from './core-adapter.js';

const signingSecret = 'pacing-signing-secret';
const botToken = 'xoxb-1-pacing';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };

describe('/fundbot pacing and /fundbot quiet', () => {
  let subscriptions: SubscriptionStore;
  let pacing: PacingSettings;
  const h = coreAdapterPerTest({
    botToken,
    signingSecret,
    core: ({ clock }) => {
      const store = memoryStore();
      subscriptions = createSubscriptionStore(store, { clock });
      pacing = createPacingSettings(store);
      return createCommandCore({
        readModel: new FakeReadModel({
          clock,
          projects: [{ project: buildProject({ link_caption: 'solar-kiosk' }) }],
        }),
        subscriptions,
        settings: createSettingsStore(store),
        pacing,
        clock,
        version: 'test',
      });
    },
  });

  async function run(text: string, userId: string) {
    const [answer] = await h.runAll('/fundbot', text, userId, 1);
    return { type: answer!.body.response_type, shown: JSON.stringify(answer!.body.blocks) };
  }

  it('sets pacing and quiet hours for a workspace admin only, and /fundbot subscriptions shows them', async () => {
    await subscriptions.subscribe(channel, 'solar-kiosk', ['supporters', 'wall'], 'U0ADMIN');
    const refused = await run('pacing wall hourly', 'U0PLAIN');
    expect(refused.type).toBe('ephemeral');
    expect((await pacing.get(channel)).kinds).toEqual({});

    const set = await run('pacing wall hourly', 'U0ADMIN');
    expect(set.type).toBe('ephemeral');
    expect(set.shown).toContain('wall in this channel: hourly');
    expect((await run('quiet 23:30-06:00', 'U0ADMIN')).shown).toContain('Quiet hours 23:30-06:00 UTC');

    const listed = await run('subscriptions', 'U0PLAIN');
    expect(listed.shown).toContain('supporters (auto) and wall (hourly)');
    expect(listed.shown).toContain('Quiet hours: 23:30-06:00 UTC');
  });

  it('explains a mistake with the /fundbot form to type', async () => {
    const minutes = await run('pacing supporters live 10', 'U0ADMIN');
    expect(minutes.shown).toContain('/fundbot pacing supporters batched 10');
    const mode = await run('pacing supporters often', 'U0ADMIN');
    expect(mode.type).toBe('ephemeral');
    expect(mode.shown).toContain('auto, live, batched, hourly, digest');
    const quiet = await run('quiet late', 'U0ADMIN');
    expect(quiet.shown).toContain('/fundbot quiet 22:00-07:00 Europe/Berlin');
    expect(await pacing.get(channel)).toEqual({ kinds: {} });
  });
});
