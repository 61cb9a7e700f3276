import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { createNoticeRouter, createPacedRouter } from '../../src/delivery/index.js';
import type { SupportDroppedEvent } from '../../src/domain/events.js';
import { defaultGuild } from '../fakes/discord/fake-discord.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { buildEvent } from '../support/event-builders.js';
import { type Harness, startHarness } from './adapter-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const channel: ChannelRef = {
  platform: 'discord',
  workspaceId: defaultGuild.id,
  channelId: defaultGuild.channels[0]!.id,
};

describe('Discord corrections', () => {
  it('a dropped support PATCHes the posted message after a restart: struck through, escaped, mentions off', async () => {
    const f = createCoreFixture();
    await f.subscriptions.subscribe(channel, 'solar-kiosk', ['supporters'], 'U');
    const paced = () =>
      createPacedRouter({
        router: createNoticeRouter({
          core: f.core,
          subscriptions: f.subscriptions,
          posters: [h.adapter.poster],
          store: f.store,
          clock: f.clock,
        }),
        core: f.core,
        subscriptions: f.subscriptions,
        posters: [h.adapter.poster],
        store: f.store,
        clock: f.clock,
      });
    const hostile = 'Eve @everyone ~~x~~ [click](https://evil.example)';
    const supporter = buildEvent.supporter({ id: 'solar-kiosk:supporter:d1', displayName: hostile });
    await paced().deliver(supporter);
    const drop: SupportDroppedEvent = {
      type: 'support-dropped',
      id: 'solar-kiosk:support-dropped:d1',
      project: 'solar-kiosk',
      occurredAt: 0,
      detectedAt: 0,
      originalEventId: supporter.id,
      entryKey: 'd1',
      displayName: hostile,
    };
    await paced().deliver(drop);
    await paced().deliver(drop);
    const patches = h.fake.requests.filter(
      (r) => r.method === 'PATCH' && r.path.startsWith(`/channels/${channel.channelId}/messages/`),
    );
    expect(patches).toHaveLength(1);
    const body = patches[0]?.body as { embeds: { title: string }[]; allowed_mentions: unknown };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const title = body.embeds[0]?.title ?? '';
    expect(title.startsWith('~~')).toBe(true);
    expect(title.endsWith('~~')).toBe(true);
    expect(title).not.toContain('@everyone');
    expect(title).not.toContain('](https://');
  });
});
