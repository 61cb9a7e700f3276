import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonceFromKey } from '../../src/adapters/discord/index.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { ChannelUnavailableError } from '../../src/delivery/index.js';
import { channelFaults, defaultGuild } from '../fakes/discord/fake-discord.js';
import { type Harness, startHarness } from './adapter-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const campaign: ChannelRef = {
  platform: 'discord',
  workspaceId: defaultGuild.id,
  channelId: defaultGuild.channels[0]!.id,
};
const messagesTo = (channelId: string) =>
  h.fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${channelId}/messages`);

describe('nonceFromKey', () => {
  it('derives the same nonce of at most 25 characters from the same key, different ones from different keys', () => {
    const a = nonceFromKey('supporter:demo:1234');
    expect(a).toBe(nonceFromKey('supporter:demo:1234'));
    expect(a.length).toBeLessThanOrEqual(25);
    expect(nonceFromKey('supporter:demo:1235')).not.toBe(a);
    expect(nonceFromKey('x'.repeat(10_000)).length).toBeLessThanOrEqual(25);
  });
});

describe('poster', () => {
  it('posts an embed with enforce_nonce, no mentions parsed, and a nonce from the event id', async () => {
    await h.adapter.poster.post(campaign, { title: 'New supporter', text: '@everyone hi' }, 'evt-1');
    const [request] = messagesTo(campaign.channelId);
    expect(request?.headers.authorization).toBe(`Bot ${h.fake.token}`);
    expect(request?.body).toMatchObject({
      nonce: nonceFromKey('evt-1'),
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
      embeds: [{ title: 'New supporter', description: '@\u200beveryone hi' }],
    });
  });

  it('makes a retried delivery idempotent: the same event id sends the same nonce and yields one message', async () => {
    const before = h.fake.channelMessages.get(campaign.channelId)?.length ?? 0;
    const sentBefore = messagesTo(campaign.channelId).length;
    await h.adapter.poster.post(campaign, { text: 'milestone 50%' }, 'evt-retry');
    await h.adapter.poster.post(campaign, { text: 'milestone 50%' }, 'evt-retry');
    const sent = messagesTo(campaign.channelId).slice(sentBefore);
    expect(sent.map((r) => (r.body as { nonce: string }).nonce)).toEqual([
      nonceFromKey('evt-retry'),
      nonceFromKey('evt-retry'),
    ]);
    expect(h.fake.channelMessages.get(campaign.channelId)?.length).toBe(before + 1);
  });

  it('uploads an attachment image as multipart and references it from the embed', async () => {
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
    await h.adapter.poster.post(
      campaign,
      {
        title: 'Digest',
        image: { kind: 'attachment', filename: 'digest.png', data: png, alt: 'Funding chart' },
      },
      'digest-2026-01-01',
    );
    const request = messagesTo(campaign.channelId).at(-1)!;
    expect(request.multipart).toBe(true);
    expect(request.files).toHaveLength(1);
    expect(request.files[0]).toMatchObject({ filename: 'digest.png' });
    expect([...request.files[0]!.data]).toEqual([...png]);
    expect(request.body).toMatchObject({
      embeds: [{ image: { url: 'attachment://digest.png' } }],
      attachments: [{ id: '0', description: 'Funding chart' }],
      nonce: nonceFromKey('digest-2026-01-01'),
    });
  });

  it.each([
    ['an unknown channel (10003)', '299999999999999999', undefined, 'gone'],
    ['missing access (50001)', '200000000000000001', channelFaults.missingAccess, 'not-member'],
    ['missing permissions (50013)', '200000000000000001', channelFaults.missingPermissions, 'no-permission'],
  ] as const)('reports %s as ChannelUnavailableError', async (_, channelId, fault, reason) => {
    if (fault) h.fake.failChannel(channelId, fault);
    const error = await h.adapter.poster
      .post({ ...campaign, channelId }, { text: 'x' }, 'evt-x')
      .catch((e: unknown) => e);
    h.fake.failChannel(channelId, undefined);
    expect(error).toBeInstanceOf(ChannelUnavailableError);
    expect(error).toMatchObject({ reason, channel: { platform: 'discord', channelId } });
    expect((error as Error).cause).toMatchObject({ code: fault?.code ?? 10003 });
    expect((error as Error).message).not.toContain(h.fake.token);
  });

  it('rethrows other failures so the outbox retries', async () => {
    h.fake.failChannel(campaign.channelId, channelFaults.serverError);
    const error = await h.adapter.poster.post(campaign, { text: 'x' }, 'evt-500').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ChannelUnavailableError);
    h.fake.failChannel(campaign.channelId, undefined);
  });

  it('never posts into a channel of another server than the subscription names', async () => {
    const before = messagesTo(campaign.channelId).length;
    const error = await h.adapter.poster
      .post({ ...campaign, workspaceId: '100000000000000099' }, { text: 'x' }, 'evt-y')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelUnavailableError);
    expect(error).toMatchObject({ reason: 'gone' });
    expect(messagesTo(campaign.channelId).length).toBe(before);
  });
});
