import { GatewayIntentBits, InteractionResponseType, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../src/adapters/discord/index.js';
import { hostileLongText } from '../../src/simulator/hostile-texts.js';
import {
  channelFaults,
  defaultGuild,
  type SentInteraction,
  startFakeDiscord,
} from '../fakes/discord/fake-discord.js';
import { type Harness, startHarness } from './adapter-harness.js';
import { expectInertMarkdown, expectNoPingOrLink } from './inert-text.js';
import { RecordingCore } from './recording-core.js';

interface CallbackBody {
  type: number;
  data?: {
    flags?: number;
    embeds?: {
      title?: string;
      description?: string;
      author?: { name: string };
      fields?: { name: string; value: string }[];
      footer?: { text: string };
    }[];
    allowed_mentions?: unknown;
    choices?: { name: string; value: string }[];
  };
}

let h: Harness;
// A fast core answers within microtasks, before any timer can fire: a tiny
// threshold keeps the deferral tests quick without making fast answers defer.
beforeAll(async () => {
  h = await startHarness({ deferAfterMs: 5 });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.core.invocations.length = 0;
  h.core.autocompletes.length = 0;
  h.core.answer = { title: 'Funding', text: 'ok' };
  h.core.failWith = undefined;
  h.fake.failInteractionCallbacks(undefined);
  h.fake.failWebhookEdits(undefined);
});

const callbackPath = (sent: SentInteraction) => `/interactions/${sent.id}/${sent.token}/callback`;
const originalPath = (sent: SentInteraction) =>
  `/webhooks/${h.fake.applicationId}/${sent.token}/messages/@original`;

async function callbackOf(sent: SentInteraction) {
  const request = await h.fake.waitForRequest((r) => r.path === callbackPath(sent));
  return { request, body: request.body as CallbackBody };
}

const manageGuild = PermissionFlagsBits.ManageGuild;

describe('gateway', () => {
  it('logs in over the fake gateway with the bot token and the Guilds intent only', async () => {
    const gateway = h.fake.requests.find((r) => r.path === '/gateway/bot');
    expect(gateway?.headers.authorization).toBe(`Bot ${h.fake.token}`);
    const identify = h.fake.gatewayReceived.find((p) => p.op === 2);
    expect(identify?.d).toMatchObject({ intents: GatewayIntentBits.Guilds, token: h.fake.token });
  });
});

describe('slash commands', () => {
  it('turns the interaction into a typed invocation with the channel, locale and display name', async () => {
    const sent = h.fake.sendChatInput({
      command: 'reward',
      options: [
        { name: 'id', value: 42 },
        { name: 'project', value: 'demo' },
      ],
      locale: 'de',
      nick: 'Ali',
    });
    await callbackOf(sent);
    expect(h.core.invocations).toEqual([
      {
        name: 'reward',
        options: { id: 42, project: 'demo' },
        context: {
          user: { id: '300000000000000001', displayName: 'Ali' },
          channel: {
            platform: 'discord',
            workspaceId: defaultGuild.id,
            channelId: defaultGuild.channels[0]!.id,
          },
          canAdminister: false,
          platformLocale: 'de',
        },
      },
    ]);
  });

  it('replies at once with an embed, parses no mentions and sends no Authorization on the callback', async () => {
    const sent = h.fake.sendChatInput({ command: 'funding' });
    const { request, body } = await callbackOf(sent);
    expect(body.type).toBe(InteractionResponseType.ChannelMessageWithSource);
    expect(body.data?.embeds?.[0]).toMatchObject({ title: 'Funding', description: 'ok' });
    expect(body.data?.allowed_mentions).toEqual({ parse: [] });
    expect((body.data?.flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    expect(request.headers.authorization).toBeUndefined();
  });

  it('answers private messages ephemerally', async () => {
    h.core.answer = { text: 'Unknown project', tone: 'error', private: true };
    const { body } = await callbackOf(h.fake.sendChatInput({ command: 'funding' }));
    expect(body.data?.flags).toBe(MessageFlags.Ephemeral);
  });

  it('renders hostile user text from the core inert (wall message, display name, reward and blog titles)', async () => {
    const hostile = '@everyone <@123> <@&456> <#789> [x](https://evil.example) **bold** # h';
    h.core.answer = {
      title: `New blog post: ${hostile}`,
      text: `${hostile}\n${hostileLongText}`,
      fields: [
        { name: `Supporter ${hostile}`, value: hostile },
        { name: 'Reward', value: `${hostile} ${hostileLongText}` },
      ],
      badge: hostile,
      footer: hostile,
    };
    const { body } = await callbackOf(h.fake.sendChatInput({ command: 'supporters', nick: '@everyone' }));
    const embed = body.data!.embeds![0]!;
    for (const text of [embed.title, embed.description, ...embed.fields!.flatMap((f) => [f.name, f.value])]) {
      expectInertMarkdown(text ?? '');
    }
    expectNoPingOrLink(embed.author!.name);
    expectNoPingOrLink(embed.footer!.text);
    expect(body.data?.allowed_mentions).toEqual({ parse: [] });
  });

  it('answers a command used outside a server privately without calling the core', async () => {
    const { body } = await callbackOf(h.fake.sendChatInput({ command: 'funding', guildId: null }));
    expect(body.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(h.core.invocations).toEqual([]);
  });
});

describe('admin commands', () => {
  it('refuses a member without Manage Server even when the command reaches the bot', async () => {
    const sent = h.fake.sendChatInput({
      command: 'subscribe',
      options: [{ name: 'project', value: 'demo' }],
      permissions: 0n,
    });
    const { body } = await callbackOf(sent);
    expect(body.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(body.data?.embeds?.[0]?.description).toMatch(/Manage Server/);
    expect(h.core.invocations).toEqual([]);
  });

  it.each([
    ['Manage Server', manageGuild],
    ['Administrator', PermissionFlagsBits.Administrator],
  ])('lets a member with %s through, with canAdminister set', async (_, permissions) => {
    const sent = h.fake.sendChatInput({
      command: 'subscribe',
      options: [{ name: 'project', value: 'demo' }],
      permissions,
    });
    await callbackOf(sent);
    expect(h.core.invocations.map((i) => i.context.canAdminister)).toEqual([true]);
  });

  it('runs public commands for members without Manage Server, with canAdminister false', async () => {
    await callbackOf(
      h.fake.sendChatInput({ command: 'funding', permissions: PermissionFlagsBits.SendMessages }),
    );
    expect(h.core.invocations[0]?.context.canAdminister).toBe(false);
  });
});

describe('the 3-second window', () => {
  it('defers a slow command publicly before the threshold, then edits the original reply', async () => {
    const release = h.core.hold();
    const sent = h.fake.sendChatInput({ command: 'funding' });
    const { body } = await callbackOf(sent);
    expect(body.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect((body.data?.flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    expect(h.fake.requests.some((r) => r.path === originalPath(sent))).toBe(false);

    h.core.answer = { title: 'Funding', text: 'late but here' };
    release();
    const edit = await h.fake.waitForRequest((r) => r.method === 'PATCH' && r.path === originalPath(sent));
    expect(edit.body).toMatchObject({
      embeds: [{ description: 'late but here' }],
      allowed_mentions: { parse: [] },
    });
    expect(edit.headers.authorization).toBeUndefined();
  });

  it('defers admin commands privately', async () => {
    const release = h.core.hold();
    h.core.answer = { text: 'Subscribed', private: true };
    const sent = h.fake.sendChatInput({
      command: 'subscribe',
      options: [{ name: 'project', value: 'demo' }],
      permissions: manageGuild,
    });
    const { body } = await callbackOf(sent);
    expect(body).toEqual({
      type: InteractionResponseType.DeferredChannelMessageWithSource,
      data: { flags: MessageFlags.Ephemeral },
    });
    release();
    await h.fake.waitForRequest((r) => r.method === 'PATCH' && r.path === originalPath(sent));
  });

  it('sends a private answer after a public deferral as an ephemeral follow-up and deletes the placeholder', async () => {
    const release = h.core.hold();
    h.core.answer = { text: 'Unknown project', tone: 'error', private: true };
    const sent = h.fake.sendChatInput({ command: 'funding' });
    await callbackOf(sent);
    release();
    const followUp = await h.fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${h.fake.applicationId}/${sent.token}`,
    );
    expect(followUp.body).toMatchObject({
      flags: MessageFlags.Ephemeral,
      embeds: [{ description: 'Unknown project' }],
    });
    const deletion = await h.fake.waitForRequest(
      (r) => r.method === 'DELETE' && r.path === originalPath(sent),
    );
    expect(h.fake.requests.indexOf(deletion)).toBeGreaterThan(h.fake.requests.indexOf(followUp));
    expect(h.fake.requests.some((r) => r.method === 'PATCH' && r.path === originalPath(sent))).toBe(false);
  });
  it('sends a public answer after a private deferral as a public follow-up and deletes the private placeholder', async () => {
    const release = h.core.hold();
    h.core.answer = { text: 'Language set for the channel' };
    const sent = h.fake.sendChatInput({
      command: 'language',
      options: [{ name: 'locale', value: 'de' }],
      permissions: manageGuild,
    });
    await callbackOf(sent);
    release();
    const followUp = await h.fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${h.fake.applicationId}/${sent.token}`,
    );
    expect(((followUp.body as { flags?: number }).flags ?? 0) & MessageFlags.Ephemeral).toBe(0);
    await h.fake.waitForRequest((r) => r.method === 'DELETE' && r.path === originalPath(sent));
  });

  it('replaces a public placeholder when the reply fails after deferring', async () => {
    const release = h.core.hold();
    h.core.answer = { text: 'x'.repeat(10) };
    const sent = h.fake.sendChatInput({ command: 'funding' });
    await callbackOf(sent);
    // The edit of the original fails (as if the token expired): the user still hears back privately.
    h.fake.failWebhookEdits(channelFaults.unknownInteraction);
    release();
    const followUp = await h.fake.waitForRequest(
      (r) => r.method === 'POST' && r.path === `/webhooks/${h.fake.applicationId}/${sent.token}`,
    );
    expect(followUp.body).toMatchObject({ flags: MessageFlags.Ephemeral });
    await h.fake.waitForRequest((r) => r.method === 'DELETE' && r.path === originalPath(sent));
  });
});

describe('failures', () => {
  it('turns a core failure into a private generic error and logs it', async () => {
    h.core.failWith = new Error('read model exploded');
    const { body } = await callbackOf(h.fake.sendChatInput({ command: 'funding', locale: 'de' }));
    expect(body.data?.flags).toBe(MessageFlags.Ephemeral);
    expect(body.data?.embeds?.[0]?.description).toMatch(/schiefgegangen/);
    expect(
      h.logger.lines.some(
        (l) => l.level === 'error' && JSON.stringify(l.fields).includes('read model exploded'),
      ),
    ).toBe(true);
  });

  it('logs a failed Discord call without the interaction token or the bot token', async () => {
    h.fake.failInteractionCallbacks(channelFaults.unknownInteraction);
    const before = h.logger.lines.length;
    const sent = h.fake.sendChatInput({ command: 'funding' });
    await callbackOf(sent);
    await expect
      .poll(
        () => h.logger.lines.slice(before).filter((l) => l.level === 'warn' || l.level === 'error').length,
      )
      .toBeGreaterThanOrEqual(2);
    const logged = JSON.stringify(h.logger.lines.slice(before));
    expect(logged).toContain('10062');
    expect(logged).not.toContain(sent.token);
    expect(logged).not.toContain(h.fake.token);
  });
});

describe('autocomplete', () => {
  it("responds with the core's project suggestions, at most 25", async () => {
    h.core.suggestions = Array.from({ length: 30 }, (_, i) => ({ name: `Project ${i}`, value: `p${i}` }));
    const sent = h.fake.sendAutocomplete({
      command: 'funding',
      options: [{ name: 'project', value: 'de' }],
      focused: 'project',
    });
    const { body } = await callbackOf(sent);
    expect(body.type).toBe(InteractionResponseType.ApplicationCommandAutocompleteResult);
    expect(body.data?.choices).toHaveLength(25);
    expect(body.data?.choices?.[0]).toEqual({ name: 'Project 0', value: 'p0' });
    expect(h.core.autocompletes).toMatchObject([{ command: 'funding', option: 'project', partial: 'de' }]);
  });

  it('answers an option without autocomplete with no choices and does not ask the core', async () => {
    const sent = h.fake.sendAutocomplete({
      command: 'reward',
      options: [{ name: 'id', value: 4 }],
      focused: 'id',
    });
    const { body } = await callbackOf(sent);
    expect(body.data?.choices).toEqual([]);
    expect(h.core.autocompletes).toEqual([]);
  });
});

describe('start', () => {
  it('fails with a message naming DISCORD_TOKEN, without the token, when Discord rejects it', async () => {
    const fake = await startFakeDiscord();
    const wrongToken = 'wrong-token.ABCDEFGH.123456';
    const adapter = createDiscordAdapter({
      token: wrongToken,
      core: new RecordingCore(),
      restApiUrl: fake.apiUrl,
      restRetries: 0,
    });
    try {
      const error = await adapter.start().catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/DISCORD_TOKEN/);
      expect((error as Error).message).not.toContain(wrongToken);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
