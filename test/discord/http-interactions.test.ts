import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createDiscordHttpAdapter,
  type DiscordHttpAdapter,
} from '../../src/adapters/discord/http-interactions/index.js';
import { nonceFromKey } from '../../src/adapters/discord/index.js';
import {
  defaultGuild,
  defaultMember,
  type FakeDiscord,
  startFakeDiscord,
} from '../fakes/discord/fake-discord.js';
import { type SignedInteractions, signedInteractions } from '../fakes/discord/signed-interactions.js';
import { recordingLogger } from './adapter-harness.js';
import { RecordingCore } from './recording-core.js';

interface InteractionResponse {
  type: number;
  data?: {
    flags?: number;
    embeds?: { title?: string; description?: string }[];
    allowed_mentions?: unknown;
    choices?: { name: string; value: string }[];
  };
}

let fake: FakeDiscord;
let discord: SignedInteractions;
let core: RecordingCore;
let adapter: DiscordHttpAdapter;
let logger: ReturnType<typeof recordingLogger>;
let url: string;

beforeAll(async () => {
  fake = await startFakeDiscord();
  discord = signedInteractions(fake);
  core = new RecordingCore();
  logger = recordingLogger();
  adapter = createDiscordHttpAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    publicKey: discord.publicKeyHex,
    core,
    logger,
    host: '127.0.0.1',
    port: 0,
    restApiUrl: fake.apiUrl,
    restRetries: 0,
    restTimeoutMs: 3_000,
    // A fast core answers within microtasks, before this timer can fire.
    deferAfterMs: 20,
    drainTimeoutMs: 1_000,
  });
  await adapter.start();
  url = adapter.url ?? '';
});
afterAll(async () => {
  await adapter?.stop();
  await fake?.close();
});
beforeEach(() => {
  core.invocations.length = 0;
  core.autocompletes.length = 0;
  core.answer = { title: 'Funding', text: 'ok' };
  core.failWith = undefined;
  fake.failWebhookEdits(undefined);
});

const manageGuild = PermissionFlagsBits.ManageGuild;
const originalPath = (token: string) => `/webhooks/${fake.applicationId}/${token}/messages/@original`;

describe('Discord HTTP interactions: signature', () => {
  it('answers a signed PING with PONG and opens no gateway', async () => {
    const answer = await discord.post(url, discord.ping());
    expect(answer).toEqual({ status: 200, body: { type: 1 } });
    expect(fake.gatewayReceived).toEqual([]);
    expect(fake.requests.some((r) => r.path === '/gateway/bot')).toBe(false);
  });

  it.each([
    ['signed with another key', { kind: 'other-key' }],
    ['changed after signing', { kind: 'tampered' }],
    ['not signed', { kind: 'none' }],
    [
      'signed ten minutes ago (a replay)',
      { kind: 'valid', timestampSeconds: Math.floor(Date.now() / 1000) - 600 },
    ],
  ] as const)('refuses a request %s with 401 and never runs the command', async (_, signing) => {
    const answer = await discord.post(url, discord.chatInput({ command: 'funding' }), signing);
    expect(answer.status).toBe(401);
    expect(core.invocations).toEqual([]);
  });

  it('serves nothing but POST on its path', async () => {
    expect((await fetch(url)).status).toBe(405);
    expect((await fetch(new URL('/other', url), { method: 'POST' })).status).toBe(404);
  });

  it('refuses a public key that is not 64 hex characters, saying where to find it', () => {
    expect(() =>
      createDiscordHttpAdapter({ token: 't', applicationId: '1', publicKey: 'abc', core }),
    ).toThrow(/Developer Portal.*General Information/);
  });
});

describe('Discord HTTP interactions: commands', () => {
  it('hands a slash command to the core like the gateway does and answers in the HTTP response', async () => {
    core.answer = { title: 'Solar Kiosk', text: '@everyone <@1> 42 %' };
    const payload = discord.chatInput({
      command: 'funding',
      options: [{ name: 'project', value: 'solar-kiosk' }],
      nick: 'Ally',
      locale: 'de',
    });
    const answer = await discord.post(url, payload);
    expect(answer.status).toBe(200);
    const body = answer.body as InteractionResponse;
    expect(body.type).toBe(4);
    expect(body.data?.flags).toBeUndefined();
    expect(body.data?.allowed_mentions).toEqual({ parse: [] });
    expect(body.data?.embeds?.[0]?.title).toBe('Solar Kiosk');
    expect(core.invocations).toEqual([
      {
        name: 'funding',
        options: { project: 'solar-kiosk' },
        context: {
          user: { id: defaultMember.user.id, displayName: 'Ally' },
          channel: {
            platform: 'discord',
            workspaceId: defaultGuild.id,
            channelId: defaultGuild.channels[0]?.id,
          },
          canAdminister: false,
          platformLocale: 'de',
        },
      },
    ]);
    // A fast answer needs no REST call at all.
    expect(fake.requests.filter((r) => r.path.includes(payload.token))).toEqual([]);
  });

  it('answers privately when the core says so', async () => {
    core.answer = { text: 'no such project', tone: 'error', private: true };
    const answer = await discord.post(url, discord.chatInput({ command: 'funding' }));
    expect((answer.body as InteractionResponse).data?.flags).toBe(64);
  });

  it('defers a slow command within the deadline and completes it through the webhook on Discord REST', async () => {
    const release = core.hold();
    core.answer = { title: 'Late answer', text: 'done' };
    const payload = discord.chatInput({ command: 'funding' });
    const answer = await discord.post(url, payload);
    expect(answer).toEqual({ status: 200, body: { type: 5, data: {} } });
    release();
    const edit = await fake.waitForRequest(
      (r) => r.method === 'PATCH' && r.path === originalPath(payload.token),
    );
    expect(edit.headers.authorization).toBeUndefined();
    const body = edit.body as InteractionResponse['data'];
    expect(body?.embeds?.[0]?.title).toBe('Late answer');
    expect(body?.allowed_mentions).toEqual({ parse: [] });
  });

  it('defers an admin command privately and posts a public answer as a follow-up, deleting the placeholder', async () => {
    const release = core.hold();
    core.answer = { title: 'Subscribed', text: 'this channel now gets notices' };
    const payload = discord.chatInput({
      command: 'subscribe',
      options: [{ name: 'project', value: 'solar-kiosk' }],
      permissions: manageGuild,
    });
    const answer = await discord.post(url, payload);
    expect(answer.body).toEqual({ type: 5, data: { flags: 64 } });
    release();
    const followUp = await fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${fake.applicationId}/${payload.token}`,
    );
    expect((followUp.body as { flags?: number }).flags).toBeUndefined();
    await fake.waitForRequest((r) => r.method === 'DELETE' && r.path === originalPath(payload.token));
    expect(core.invocations[0]?.context.canAdminister).toBe(true);
  });

  it('refuses an admin command to a member without Manage Server, privately, without asking the core', async () => {
    const answer = await discord.post(url, discord.chatInput({ command: 'subscribe', permissions: 0n }));
    const body = answer.body as InteractionResponse;
    expect(body.type).toBe(4);
    expect(body.data?.flags).toBe(64);
    expect(body.data?.embeds?.[0]?.description).toMatch(/Manage Server/);
    expect(core.invocations).toEqual([]);
  });

  it('answers a command outside a server privately', async () => {
    const answer = await discord.post(url, discord.chatInput({ command: 'funding', guildId: null }));
    expect((answer.body as InteractionResponse).data?.flags).toBe(64);
    expect(core.invocations).toEqual([]);
  });

  it('reports a failed completion to the user and logs no interaction token', async () => {
    const release = core.hold();
    fake.failWebhookEdits({ status: 500, code: 0, message: 'Internal Server Error' });
    const payload = discord.chatInput({ command: 'funding' });
    await discord.post(url, payload);
    release();
    const apology = await fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${fake.applicationId}/${payload.token}`,
    );
    expect((apology.body as { flags?: number }).flags).toBe(64);
    expect(JSON.stringify(logger.lines)).not.toContain(payload.token);
    expect(logger.lines.some((l) => l.message === 'discord interaction failed')).toBe(true);
  });
});

describe('Discord HTTP interactions: autocomplete', () => {
  it('answers with the core project suggestions, limited to Discord rules', async () => {
    core.suggestions = [
      { name: 'Solar Kiosk', value: 'solar-kiosk' },
      { name: 'Too long', value: 'x'.repeat(101) },
      ...Array.from({ length: 30 }, (_, i) => ({ name: `P${i}`, value: `p${i}` })),
    ];
    const answer = await discord.post(
      url,
      discord.autocomplete({
        command: 'funding',
        options: [{ name: 'project', value: 'sol' }],
        focused: 'project',
      }),
    );
    const body = answer.body as InteractionResponse;
    expect(body.type).toBe(8);
    expect(body.data?.choices?.[0]).toEqual({ name: 'Solar Kiosk', value: 'solar-kiosk' });
    expect(body.data?.choices).toHaveLength(25);
    expect(body.data?.choices?.some((c) => c.value.length > 100)).toBe(false);
    expect(core.autocompletes[0]).toMatchObject({
      command: 'funding',
      option: 'project',
      partial: 'sol',
      context: { channel: { workspaceId: defaultGuild.id } },
    });
  });

  it('suggests nothing for an option that is not a project', async () => {
    core.suggestions = [{ name: 'Solar Kiosk', value: 'solar-kiosk' }];
    const answer = await discord.post(
      url,
      discord.autocomplete({ command: 'reward', options: [{ name: 'id', value: '1' }], focused: 'id' }),
    );
    expect(answer.body).toEqual({ type: 8, data: { choices: [] } });
    expect(core.autocompletes).toEqual([]);
  });
});

describe('Discord HTTP mode: notices through REST', () => {
  const channel = {
    platform: 'discord',
    workspaceId: defaultGuild.id,
    channelId: defaultGuild.channels[0]?.id ?? '',
  } as const;

  it('posts with the idempotent nonce, so a retried delivery does not post twice', async () => {
    const before = fake.channelMessages.get(channel.channelId)?.length ?? 0;
    await adapter.poster.post(channel, { title: 'New supporter', text: '@here hi' }, 'event-42');
    await adapter.poster.post(channel, { title: 'New supporter', text: '@here hi' }, 'event-42');
    expect(fake.channelMessages.get(channel.channelId)?.length).toBe(before + 1);
    const create = await fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/channels/${channel.channelId}/messages`,
    );
    expect(create.body).toMatchObject({
      nonce: nonceFromKey('event-42'),
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
    });
    expect(create.headers.authorization).toBe(`Bot ${fake.token}`);
    // The channel's server is looked up once and remembered.
    expect(
      fake.requests.filter((r) => r.method === 'GET' && r.path === `/channels/${channel.channelId}`),
    ).toHaveLength(1);
  });

  it('names each message, so a correction edits it and the daily thread opens on it, mentions off', async () => {
    const poster = adapter.poster;
    const receipt = await poster.post(channel, { title: 'New supporter', text: 'Eve' }, 'event-50');
    const posted = fake.channelMessages.get(channel.channelId)?.at(-1);
    expect(receipt?.messageId).toBe(posted?.['id']);
    const messageId = receipt?.messageId ?? '';
    await poster.edit?.(channel, messageId, {
      title: 'Withdrawn @everyone',
      text: '[x](https://evil.example)',
    });
    const patch = await fake.waitForRequest(
      (r) => r.method === 'PATCH' && r.path === `/channels/${channel.channelId}/messages/${messageId}`,
    );
    expect(patch.body).toMatchObject({ allowed_mentions: { parse: [] } });
    // The daily thread: opened on the message, the same thread when opened again (a restart).
    const thread = await poster.startThread?.(channel, messageId, 'Solar Kiosk today');
    expect(thread).toEqual({ parentMessageId: messageId, threadId: messageId });
    expect(await poster.startThread?.(channel, messageId, 'Solar Kiosk today')).toEqual(thread);
    const reply = await poster.post(channel, { text: 'Ann' }, 'event-51', thread);
    const inThread = fake.channelMessages.get(messageId)?.at(-1);
    expect(reply?.messageId).toBe(`${messageId}/${String(inThread?.['id'])}`);
    await poster.edit?.(channel, reply?.messageId ?? '', { text: 'Ann (withdrawn)' });
    await fake.waitForRequest(
      (r) => r.method === 'PATCH' && r.path === `/channels/${messageId}/messages/${String(inThread?.['id'])}`,
    );
  });

  it('never posts into a channel of another server', async () => {
    await expect(
      adapter.poster.post({ ...channel, workspaceId: '999999999999999999' }, { text: 'x' }, 'event-43'),
    ).rejects.toMatchObject({ name: 'ChannelUnavailableError', reason: 'gone' });
  });

  it('sends a chart as a multipart attachment the embed refers to', async () => {
    const data = new Uint8Array([137, 80, 78, 71]);
    await adapter.poster.post(
      channel,
      { title: 'Digest', image: { kind: 'attachment', filename: 'chart.png', data, alt: 'chart' } },
      'digest-1',
    );
    const create = await fake.waitForRequest(
      (r) => r.multipart && r.path === `/channels/${channel.channelId}/messages`,
    );
    expect(create.files.map((f) => f.filename)).toEqual(['chart.png']);
    expect(create.body).toMatchObject({ attachments: [{ id: '0', filename: 'chart.png' }] });
  });
});
