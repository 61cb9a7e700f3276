/**
 * /chart: the command core with the digest's real chart renderer behind its port,
 * on the digest's scripted campaign.
 */
import { describe, expect, it } from 'vitest';
import type { CommandCore } from '../../src/core/command-core.js';
import type { CommandCoreDeps } from '../../src/core/command-core-deps.js';
import { createCommandCore } from '../../src/core/create-command-core.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { createSettingsStore } from '../../src/core/settings/settings-store.js';
import { createSubscriptionStore } from '../../src/core/subscription-store.js';
import { chartPreview } from '../../src/digest/index.js';
import { findCommand } from '../../src/domain/command-definitions.js';
import { memoryStore } from '../../src/lib/store.js';
import { FakeReadModel } from '../support/fake-read-model.js';
import { ManualClock } from '../support/manual-clock.js';
import { scriptedCampaign } from './campaign-fixtures.js';

// 09:00 in Berlin on 10 March 2026.
const now = Date.UTC(2026, 2, 10, 8, 0);
const channel: ChannelRef = { platform: 'discord', workspaceId: 'G1', channelId: 'C1' };

function core(deps: Partial<CommandCoreDeps> = {}): { core: CommandCore; setGerman: () => Promise<void> } {
  const clock = new ManualClock(now);
  const readModel = new FakeReadModel({ clock }).addProject(scriptedCampaign(now));
  const store = memoryStore();
  const settings = createSettingsStore(store);
  return {
    core: createCommandCore({
      readModel,
      subscriptions: createSubscriptionStore(store, { clock }),
      settings,
      clock,
      version: 'test',
      fundingChart: chartPreview(readModel, clock, 'Europe/Berlin', () => [25, 50, 75, 100]),
      ...deps,
    }),
    setGerman: () => settings.setLocale(channel, 'channel', 'de'),
  };
}

const run = (c: CommandCore) =>
  c.execute({
    name: 'chart',
    options: {},
    context: { user: { id: 'U1', displayName: 'Alice' }, channel, canAdminister: false },
  });

function pngSize(data: Uint8Array): [number, number] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return [view.getUint32(16), view.getUint32(20)];
}

describe('/chart', () => {
  it('is one command definition (on Slack: /fundbot chart)', () => {
    expect(findCommand('chart')?.name).toBe('chart');
  });

  it('answers with the funding chart as a 2x PNG attachment, titled with the project and the date', async () => {
    const message = await run(core().core);
    expect(message.private).toBeUndefined();
    expect(message.title).toBe('Solar Kiosk · Mar 10, 2026');
    expect(message.text).toMatch(/^At the last 7 days' rate .* the goal is reached around Mar 12, 2026\.$/);
    expect(message.image).toMatchObject({
      kind: 'attachment',
      filename: 'funding-solar-kiosk-2026-03-10.png',
    });
    if (message.image?.kind !== 'attachment') throw new Error('no attachment');
    expect(pngSize(message.image.data)).toEqual([1600, 940]);
    expect(message.image.alt).toContain('Funding chart from');
  });

  it('answers in the channel language', async () => {
    const { core: c, setGerman } = core();
    await setGerman();
    const message = await run(c);
    expect(message.title).toBe('Solar Kiosk · 10.03.2026');
    if (message.image?.kind !== 'attachment') throw new Error('no attachment');
    expect(message.image.alt).toContain('Finanzierungsverlauf');
  });

  it('says privately that the chart is not available when the bot has no renderer', async () => {
    const c = createCommandCore({
      readModel: new FakeReadModel({ clock: { now: () => now } }).addProject(scriptedCampaign(now)),
      subscriptions: createSubscriptionStore(memoryStore(), { clock: new ManualClock(now) }),
      settings: createSettingsStore(memoryStore()),
      clock: new ManualClock(now),
      version: 'test',
    });
    expect(await run(c)).toMatchObject({
      private: true,
      text: 'The funding chart is not available on this bot.',
    });
  });
});
