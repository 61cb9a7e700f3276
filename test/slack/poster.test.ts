import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { botRetryPolicy, createSlackAdapter, type SlackAdapter } from '../../src/adapters/slack/index.js';
import { fileMarker } from '../../src/adapters/slack/slack-look.js';
import type { NeutralMessage } from '../../src/core/message.js';
import type { ChannelRef } from '../../src/core/ports.js';
import { ChannelUnavailableError, DeliveryNotPostedError } from '../../src/delivery/index.js';
import { type FakeSlack, startFakeSlack } from '../fakes/slack/fake-slack.js';
import { recordingCore, recordingLogger } from './helpers.js';

const botToken = 'xoxb-1-test-bot-token';
const channel: ChannelRef = { platform: 'slack', workspaceId: 'T0FAKE', channelId: 'C0CHAN' };
const notice: NeutralMessage = {
  title: 'New supporter',
  text: 'Ada supports the project',
  links: [{ label: 'Open project', url: 'https://platform.example/solar-kiosk' }],
};

describe('Slack poster', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;

  beforeEach(async () => {
    fake = await startFakeSlack({ botToken });
    // Never started: the poster works without the inbound connection.
    adapter = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      slackApiUrl: fake.apiUrl,
      retryPolicy: { retries: 2, minTimeout: 0, maxTimeout: 1 },
      logger: recordingLogger(),
    });
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  it('posts blocks with the event id in metadata and in the first block id, and unfurls off', async () => {
    await adapter.poster.post(channel, notice, 'evt:supporter:solar-kiosk:42');
    const [call] = fake.callsTo('chat.postMessage');
    expect(call?.token).toBe(botToken);
    expect(call?.args).toMatchObject({
      channel: 'C0CHAN',
      unfurl_links: 'false',
      unfurl_media: 'false',
      metadata: { event_type: 'fundbot_notice', event_payload: { event_id: 'evt:supporter:solar-kiosk:42' } },
      text: 'New supporter — Ada supports the project',
    });
    // The first block's id carries the key too: message events keep blocks, not always the metadata's payload.
    expect(call?.args.blocks).toEqual([
      {
        type: 'header',
        text: { type: 'plain_text', text: 'New supporter', emoji: true },
        block_id: 'fundbot:evt:supporter:solar-kiosk:42',
      },
      { type: 'section', text: { type: 'plain_text', text: 'Ada supports the project', emoji: true } },
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [{ type: 'link', url: 'https://platform.example/solar-kiosk', text: 'Open project' }],
          },
        ],
      },
    ]);
  });

  it('sends hostile text in every field as inert text (what Slack receives, after the transport)', async () => {
    const evil = '<!channel> <@U123> <https://evil.example|click> *bold* https://evil.example @here';
    await adapter.poster.post(
      channel,
      {
        title: evil,
        text: evil,
        badge: evil,
        footer: evil,
        fields: [{ name: evil, value: evil, inline: true }],
        links: [{ label: evil, url: 'https://platform.example/p' }],
      },
      'evt:hostile',
    );
    const [call] = fake.callsTo('chat.postMessage');
    const blocks = JSON.stringify(call?.args.blocks);
    // No mrkdwn at all: user text is plain_text or rich text, literal; no control sequence, link or broadcast.
    expect(blocks).not.toContain('"type":"mrkdwn"');
    expect(blocks).not.toMatch(/<[!@]|<https:\/\/evil|https:\/\/evil|@here/);
    expect(blocks).toContain('*bold*');
    // The notification fallback keeps the real characters; with no raw < or > nothing in it can ping or link.
    expect(String(call?.args.text)).not.toMatch(/[<>]/);
    expect(String(call?.args.text)).toContain('&lt;https://evil.example|click&gt; *bold*');
    // The only link is the trusted one.
    expect([...blocks.matchAll(/"url":"([^"]*)"/g)].map((m) => m[1])).toEqual(['https://platform.example/p']);
  });

  it('uploads an attachment through files.uploadV2: upload URL, bytes, then completion in the channel', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await adapter.poster.post(
      channel,
      {
        title: 'Daily digest <!channel>',
        fields: [{ name: 'Supporters', value: '+12' }],
        image: { kind: 'attachment', filename: '../../etc/chart.png', data: png, alt: 'Funding chart' },
      },
      'evt:digest:2026-01-01',
    );
    const [getUrl] = fake.callsTo('files.getUploadURLExternal');
    // The file name is made safe and carries the delivery's marker, so a look finds a share in doubt.
    expect(getUrl?.args).toMatchObject({
      filename: `chart-${fileMarker('evt:digest:2026-01-01')}.png`,
      length: String(png.length),
    });
    expect(fake.uploads).toHaveLength(1);
    expect([...(fake.uploads[0]?.bytes ?? [])]).toEqual([...png]);
    const [complete] = fake.callsTo('files.completeUploadExternal');
    expect(complete?.args).toMatchObject({
      channel_id: 'C0CHAN',
      files: [{ id: fake.uploads[0]?.fileId }],
    });
    // The message beside the file is rich text: the title bold and literal, the field below it.
    expect(complete?.args.initial_comment).toBeUndefined();
    const blocks = JSON.stringify(complete?.args.blocks);
    expect(blocks).toContain('{"type":"text","text":"Daily digest <\u200b!channel>","style":{"bold":true}}');
    expect(blocks).toContain(
      '{"type":"text","text":"Supporters","style":{"bold":true}},{"type":"text","text":"\\n+12"}',
    );
    expect(fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it.each([
    ['channel_not_found', 'gone'],
    ['is_archived', 'archived'],
    ['not_in_channel', 'not-member'],
    ['restricted_action', 'no-permission'],
    // Token-wide refusals hold the channel too: nothing is lost while the operator fixes the token.
    ['invalid_auth', 'token-revoked'],
    ['token_revoked', 'token-revoked'],
    ['account_inactive', 'token-revoked'],
  ])(
    'turns %s into ChannelUnavailableError (%s): the channel is held, not retried blind',
    async (code, reason) => {
      fake.fail('chat.postMessage', { error: code });
      const error = await adapter.poster.post(channel, notice, 'evt:1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChannelUnavailableError);
      expect(error).toMatchObject({ reason, channel });
      expect(((error as Error).cause as { data?: { error?: string } }).data?.error).toBe(code);
      expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
    },
  );

  it.each(['msg_too_long'])(
    'turns the refusal %s into DeliveryNotPostedError: retried later, and not in doubt (Slack posted nothing)',
    async (code) => {
      fake.fail('chat.postMessage', { error: code });
      const error = await adapter.poster.post(channel, notice, 'evt:1').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DeliveryNotPostedError);
      expect(((error as Error).cause as { data?: { error?: string } }).data?.error).toBe(code);
    },
  );

  it('leaves a 500 in doubt: no retry by the client (a retried post is the duplicate), the router looks first', async () => {
    fake.fail('chat.postMessage', { status: 500 });
    const error = await adapter.poster.post(channel, notice, 'evt:1').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(DeliveryNotPostedError);
    expect(error).toMatchObject({ code: 'slack_webapi_http_error', statusCode: 500 });
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('answers with the message ts as the receipt', async () => {
    const receipt = await adapter.poster.post(channel, notice, 'evt:receipt');
    expect(receipt).toEqual({ messageId: fake.messages.get('C0CHAN')?.[0]?.ts });
  });

  it('rejects a rate-limited call at once instead of pausing the client for Retry-After', async () => {
    // With waiting enabled this would sleep 120 s and time the test out.
    fake.fail('chat.postMessage', { status: 429, retryAfterSeconds: 120 });
    const error = await adapter.poster.post(channel, notice, 'evt:1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryNotPostedError);
    expect(error).toMatchObject({ retryAfterMs: 120_000 });
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('takes apiUrl (SLACK_API_URL) with or without the trailing slash', async () => {
    const other = createSlackAdapter({
      mode: 'http',
      botToken,
      signingSecret: 'secret',
      core: recordingCore(),
      apiUrl: fake.apiUrl.replace(/\/$/, ''),
      logger: recordingLogger(),
    });
    await other.poster.post(channel, notice, 'evt:url');
    expect(fake.callsTo('chat.postMessage')).toHaveLength(1);
  });

  it('refuses a channel of another platform', async () => {
    await expect(adapter.poster.post({ ...channel, platform: 'discord' }, notice, 'evt:1')).rejects.toThrow(
      /poster by platform/,
    );
  });
});

describe('the production retry policy', () => {
  it('gives up within about 30 seconds: a few retries, the outbox retries later', () => {
    expect(botRetryPolicy.retries).toBeLessThanOrEqual(5);
    expect(botRetryPolicy.maxRetryTime).toBeLessThanOrEqual(30_000);
    expect(botRetryPolicy.forever).toBeUndefined();
  });
});
