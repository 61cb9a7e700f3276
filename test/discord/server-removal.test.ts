/**
 * fundbot removed from a Discord server: the gateway adapter deletes what was stored for it (the
 * same forgetWorkspace a Slack uninstall runs), and a server outage deletes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordAdapter } from '../../src/adapters/discord/index.js';
import { forgetWorkspace } from '../../src/app/forget-workspace.js';
import { createChannelAccessStates, createSubscriptionStore } from '../../src/core/index.js';
import { memoryStore } from '../../src/lib/store.js';
import { defaultGuild, type FakeDiscord, startFakeDiscord } from '../fakes/discord/fake-discord.js';
import { buildProject } from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { ManualClock } from '../support/manual-clock.js';

const clock = new ManualClock(Date.UTC(2026, 2, 2, 10));
const settingsStore = memoryStore();
const subscriptions = createSubscriptionStore(settingsStore, { clock });
const channel = (workspaceId: string) => ({ platform: 'discord' as const, workspaceId, channelId: '1' });
const forgotten: Record<string, number>[] = [];
/** Channel updates the adapter passed on: each marks that the gateway events before it were handled. */
const accessChanges: unknown[] = [];

let fake: FakeDiscord;
let adapter: DiscordAdapter;

beforeAll(async () => {
  fake = await startFakeDiscord();
  const fixture = createCoreFixture({
    projects: [{ project: buildProject({ link_caption: 'solar-kiosk' }) }],
  });
  adapter = createDiscordAdapter({
    token: fake.token,
    core: fixture.core,
    restApiUrl: fake.apiUrl,
    restRetries: 0,
    onAccessChanged: (scope) => accessChanges.push(scope),
    forgetWorkspace: async (workspace) => {
      const removed = await forgetWorkspace({
        settingsStore,
        deliveriesStore: memoryStore(),
        subscriptions,
        access: createChannelAccessStates(settingsStore),
        workspace,
      });
      forgotten.push(removed);
      return removed;
    },
  });
  await adapter.start();
});

afterAll(async () => {
  await adapter.stop();
  await fake.close();
});

describe('fundbot removed from a Discord server', () => {
  it('an outage keeps the server data; a removal deletes its subscriptions, and only that server’s', async () => {
    await subscriptions.subscribe(channel(defaultGuild.id), 'solar-kiosk', ['supporters'], 'admin');
    await subscriptions.subscribe(channel('other-guild'), 'solar-kiosk', ['supporters'], 'admin');

    fake.removeFromGuild(defaultGuild.id, 'outage');
    // A channel update after the outage: once it is passed on, the outage was handled (and forgot nothing).
    fake.setPermissionOverwrites(defaultGuild.channels[0]?.id ?? '', []);
    await expect.poll(() => accessChanges.length, { timeout: 5_000 }).toBe(1);
    expect(forgotten).toEqual([]);

    fake.removeFromGuild(defaultGuild.id);
    await expect.poll(() => forgotten.length, { timeout: 5_000 }).toBe(1);
    expect(forgotten[0]).toMatchObject({ subscriptions: 1 });
    const left = await subscriptions.forProject('solar-kiosk', 'supporters');
    expect(left.map((s) => s.channel.workspaceId)).toEqual(['other-guild']);
  });
});
