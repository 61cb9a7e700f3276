/**
 * The Discord adapter's ChannelAccess against the fake Discord: the bot member's
 * computed permissions (its role and the channels' overwrites), threads, and
 * /subscribe through the real core refusing, or confirming and following up
 * with the public "now watching" summary.
 */
import { describe, expect, it } from 'vitest';
import type { ChannelRef } from '../../src/core/ports.js';
import { channelFaults, defaultGuild } from '../fakes/discord/fake-discord.js';
import { botRoleId, type FakeGuild } from '../fakes/discord/fake-discord-payloads.js';
import { buildProject } from '../support/builders.js';
import { createCoreFixture } from '../support/core-fixture.js';
import { coreAdapterPerFile, interactionReply } from './adapter-harness.js';

const sendMessages = 1n << 11n;
const embedLinks = 1n << 14n;
const viewChannel = 1n << 10n;
const sendInThreads = 1n << 38n;
const manageGuild = 1n << 5n;

const guildId = defaultGuild.id;
const botRole = botRoleId(defaultGuild);
const ids = {
  open: '200000000000000001',
  noSend: '200000000000000002',
  hidden: '200000000000000003',
  archivedThread: '200000000000000004',
  noThreads: '200000000000000005',
  threadInNoThreads: '200000000000000006',
  openThread: '200000000000000007',
  forbidden: '200000000000000099',
};
const guild: FakeGuild = {
  id: guildId,
  name: 'Fund Guild',
  channels: [
    { id: ids.open, name: 'campaign' },
    {
      id: ids.noSend,
      name: 'read-only',
      permissionOverwrites: [{ id: botRole, type: 0, deny: sendMessages | embedLinks }],
    },
    { id: ids.hidden, name: 'staff', permissionOverwrites: [{ id: botRole, type: 0, deny: viewChannel }] },
    { id: ids.archivedThread, name: 'old thread', type: 11, parentId: ids.open, archived: true },
    {
      id: ids.noThreads,
      name: 'no-threads',
      permissionOverwrites: [{ id: botRole, type: 0, deny: sendInThreads }],
    },
    { id: ids.threadInNoThreads, name: 'thread', type: 11, parentId: ids.noThreads },
    { id: ids.openThread, name: 'live thread', type: 11, parentId: ids.open },
  ],
};
const ref = (channelId: string): ChannelRef => ({ platform: 'discord', workspaceId: guildId, channelId });

const h = coreAdapterPerFile(
  (adapter) =>
    createCoreFixture({
      projects: [{ project: buildProject({ link_caption: 'solar-kiosk', title: 'Solar Kiosk' }) }],
      deps: { channelAccess: { canPost: (channel) => adapter().channelAccess.canPost(channel) } },
    }),
  { guilds: [guild] },
);

describe('Discord ChannelAccess: the bot’s permissions in the channel', () => {
  it('allows a channel where its role has View Channel, Send Messages, Embed Links and Attach Files', async () => {
    expect(await h.adapter.channelAccess.canPost(ref(ids.open))).toEqual({ ok: true });
    expect(await h.adapter.channelAccess.canPost(ref(ids.openThread))).toEqual({ ok: true });
  });

  it('names the permissions an overwrite takes away', async () => {
    expect(await h.adapter.channelAccess.canPost(ref(ids.noSend))).toEqual({
      ok: false,
      reason: 'no-permission',
      missing: ['send-messages', 'embed-links'],
    });
    const hidden = await h.adapter.channelAccess.canPost(ref(ids.hidden));
    expect(hidden).toMatchObject({ ok: false, reason: 'no-permission' });
    expect(hidden.ok === false && hidden.missing).toContain('view-channel');
  });

  it('checks Send Messages in Threads in a thread, and refuses an archived thread', async () => {
    expect(await h.adapter.channelAccess.canPost(ref(ids.threadInNoThreads))).toEqual({
      ok: false,
      reason: 'no-permission',
      missing: ['send-messages-in-threads'],
    });
    expect(await h.adapter.channelAccess.canPost(ref(ids.archivedThread))).toEqual({
      ok: false,
      reason: 'archived',
    });
  });

  it('a channel Discord will not show the bot (Missing Access) needs View Channel', async () => {
    h.fake.failChannel(ids.forbidden, channelFaults.missingAccess);
    expect(await h.adapter.channelAccess.canPost(ref(ids.forbidden))).toEqual({
      ok: false,
      reason: 'no-permission',
      missing: ['view-channel'],
    });
  });

  it('never answers for a channel of another server', async () => {
    expect(await h.adapter.channelAccess.canPost({ ...ref(ids.open), workspaceId: '999' })).toEqual({
      ok: false,
      reason: 'unknown',
    });
  });
});

describe('/subscribe on Discord with the real core', () => {
  type ReplyBody = { data?: { flags?: number; embeds?: { description?: string; title?: string }[] } };
  const callbackOf = (sent: { id: string; token: string }) => interactionReply<ReplyBody>(h.fake, sent);

  /** /subscribe solar-kiosk (and `more` options) sent by a member who may manage the server. */
  const subscribeIn = (channelId: string, ...more: { name: string; value: string }[]) =>
    h.fake.sendChatInput({
      command: 'subscribe',
      channelId,
      permissions: manageGuild,
      options: [{ name: 'project', value: 'solar-kiosk' }, ...more],
    });

  it('refuses privately where the bot may not post, naming the permissions, and stores nothing', async () => {
    const sent = subscribeIn(ids.noSend);
    const body = await callbackOf(sent);
    expect(body.data?.flags).toBe(64);
    expect(JSON.stringify(body.data?.embeds)).toContain('Give the bot’s role Send Messages and Embed Links');
    expect(await h.fixture.subscriptions.forChannel(ref(ids.noSend))).toEqual([]);
  });

  it('confirms privately and follows up publicly with "now watching", once', async () => {
    const sent = subscribeIn(ids.open);
    const body = await callbackOf(sent);
    expect(body.data?.flags).toBe(64);
    const followUp = await h.fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${h.fake.applicationId}/${sent.token}`,
    );
    const followBody = followUp.body as { flags?: number; embeds?: { title?: string }[] };
    expect(followBody.flags ?? 0).toBe(0);
    expect(followBody.embeds?.[0]?.title).toContain('fundbot is now watching Solar Kiosk');
    expect(await h.fixture.subscriptions.forChannel(ref(ids.open))).toHaveLength(1);

    const again = subscribeIn(ids.open, { name: 'kinds', value: 'wall' });
    await callbackOf(again);
    // A follow-up would leave right after that callback; a later command's round trip over the gateway outlasts it.
    await callbackOf(h.fake.sendChatInput({ command: 'help', channelId: ids.open }));
    expect(h.fake.requests.some((r) => r.path === `/webhooks/${h.fake.applicationId}/${again.token}`)).toBe(
      false,
    );
  });
});
