/**
 * Discord for the chat journey, in either mode: the gateway (commands pushed over the fake's WebSocket) or HTTP
 * interactions (commands POSTed to the bot's endpoint, signed with Ed25519). Both post through the fake
 * Discord's REST API, whose recordings are what the channel shows.
 */
import { commandDefinitions } from '../../../src/domain/command-definitions.js';
import {
  channelFaults,
  type FakeDiscord,
  lateCreate,
  startFakeDiscord,
} from '../../fakes/discord/fake-discord.js';
import { botRoleId, channelPayload, type FakeGuild } from '../../fakes/discord/fake-discord-payloads.js';
import type { RecordedRequest } from '../../fakes/discord/recorded-request.js';
import { type SignedInteractions, signedInteractions } from '../../fakes/discord/signed-interactions.js';
import { freePort } from '../../support/redis-server.js';
import { processStartMs, waitUntil } from '../../support/wait-until.js';
import type { BotProcess } from './bot-process.js';
import {
  type AnswerMessage,
  type ChannelEdit,
  type ChannelPost,
  type ChatDriver,
  type CommandRun,
  discordVisible,
  type RenderedText,
} from './chat-driver.js';

/** The README's invite permissions for the daily thread: 52224 (View Channels, Send Messages, Embed Links,
 * Attach Files) plus Create Public Threads and Send Messages in Threads = 309237697536. */
export const readmeThreadPermissions = 309_237_697_536n;
const manageServer = 1n << 5n;
const sendMessages = 1n << 11n;
const ephemeral = 64;

const guildId = '100000000000000001';
const channels = { main: '200000000000000001', other: '200000000000000002', locked: '200000000000000003' };
const guild: FakeGuild = {
  id: guildId,
  name: 'Solar Kiosk Team',
  botPermissions: readmeThreadPermissions,
  channels: [
    { id: channels.main, name: 'campaign' },
    { id: channels.other, name: 'kampagne' },
    {
      id: channels.locked,
      name: 'announcements',
      // The bot's role may not send here (gateway mode reads this from its cache).
      permissionOverwrites: [{ id: botRoleId({ id: guildId }), type: 0, deny: sendMessages }],
    },
  ],
};

type Body = Record<string, unknown> & { type?: number; data?: Record<string, unknown> };
/** An interaction's first answer: the callback (gateway) or the endpoint's HTTP response (HTTP mode). */
interface Initial {
  readonly body: Body;
  readonly at: number;
  /** The recorded callback, which carries the files of a multipart answer. */
  readonly request?: RecordedRequest;
}

/** The driver, with the handles the journey's Discord-only checks use. */
export interface DiscordDriver extends ChatDriver {
  readonly fake: FakeDiscord;
  readonly signed: SignedInteractions;
  /** The bot's interactions endpoint (HTTP mode). */
  endpoint(): string;
}

export async function startDiscordDriver(mode: 'gateway' | 'http'): Promise<DiscordDriver> {
  const fake: FakeDiscord = await startFakeDiscord({ guilds: [guild] });
  const signed = signedInteractions(fake);
  // HTTP mode: the bot checks a channel with one GET, which Discord answers Missing Access where it may not post.
  if (mode === 'http') fake.failChannel(channels.locked, channelFaults.missingAccess);
  let port = 0;
  const endpoint = () => `http://127.0.0.1:${port}/discord/interactions`;
  const httpAnswers = new Map<string, Initial>();

  const timeOf = (request: RecordedRequest) =>
    fake.requestTimes[fake.requests.indexOf(request)] ?? Date.now();

  function answerMessages(id: string, token: string): AnswerMessage[] {
    const messages: AnswerMessage[] = [];
    let placeholder: AnswerMessage['visibility'] | undefined;
    const initial: Initial | undefined =
      mode === 'http'
        ? httpAnswers.get(token)
        : (() => {
            const callback = fake.requests.find(
              (r) => r.method === 'POST' && r.path === `/interactions/${id}/${token}/callback`,
            );
            return callback
              ? { body: callback.body as Body, at: timeOf(callback), request: callback }
              : undefined;
          })();
    if (initial?.body.type === 4) {
      messages.push(answerOf(initial.body.data ?? {}, initial.at, initial.request));
    } else if (initial?.body.type === 5) {
      placeholder = flagsOf(initial.body.data) & ephemeral ? 'private' : 'public';
    }
    for (const request of fake.requests) {
      if (!request.path.startsWith(`/webhooks/${fake.applicationId}/${token}`)) continue;
      if (request.method === 'PATCH' && request.path.endsWith('/messages/@original')) {
        messages.push({
          ...answerOf(request.body as Body, timeOf(request), request),
          visibility: placeholder ?? 'public',
        });
      } else if (request.method === 'POST') {
        messages.push(answerOf(request.body as Body, timeOf(request), request));
      }
    }
    return messages;
  }

  function command(
    name: string,
    args: readonly string[] = [],
    options: { admin?: boolean; channel?: string } = {},
  ): CommandRun {
    const definition = commandDefinitions.find((d) => d.name === name);
    if (!definition) throw new Error(`no command /${name}`);
    const commandOptions = definition.options.flatMap((option, i) => {
      const value = option.rest ? args.slice(i).join(' ') : args[i];
      if (value === undefined || value === '') return [];
      return [{ name: option.name, value: option.type === 'integer' ? Number(value) : value }];
    });
    const permissions = options.admin ? manageServer : 0n;
    const channelId = options.channel ?? channels.main;
    const sentAt = Date.now();
    let id: string;
    let token: string;
    let acknowledged: Promise<number>;
    if (mode === 'gateway') {
      const sent = fake.sendChatInput({ command: name, options: commandOptions, permissions, channelId });
      ({ id, token } = sent);
      acknowledged = fake
        .waitForRequest((r) => r.path === `/interactions/${id}/${token}/callback`, 10_000)
        .then((r) => timeOf(r) - sentAt);
    } else {
      const channel = guild.channels.find((c) => c.id === channelId) ?? guild.channels[0]!;
      const payload = {
        ...signed.chatInput({ command: name, options: commandOptions, permissions }),
        channel_id: channel.id,
        channel: channelPayload(channel, guildId),
        // What the README's invite grants the bot (Discord sends the bot's permissions in the channel).
        app_permissions: (channel.id === channels.locked ? 0n : readmeThreadPermissions).toString(),
      };
      ({ id, token } = payload);
      acknowledged = signed.post(endpoint(), payload).then((response) => {
        const at = Date.now();
        if (response.status !== 200) throw new Error(`/${name}: the endpoint answered ${response.status}`);
        httpAnswers.set(token, { body: response.body as Body, at });
        return at - sentAt;
      });
      acknowledged.catch(() => undefined);
    }
    const message = (n: number, timeoutMs = 10_000) =>
      waitUntil(`message ${n} of the answer to /${name}`, () => answerMessages(id, token)[n], {
        timeoutMs: timeoutMs,
      });
    return {
      sentAt,
      answer: (timeoutMs) => message(0, timeoutMs),
      message,
      messages: () => answerMessages(id, token),
      acknowledgedWithinMs: () => acknowledged,
    };
  }

  function posts(): ChannelPost[] {
    const creates = fake.requests.filter(
      (r) => r.method === 'POST' && /^\/channels\/\d+\/messages$/.test(r.path),
    );
    const all: ChannelPost[] = [];
    for (const [channel, messages] of fake.channelMessages) {
      // A thread's id is the id of the message it was started on.
      const isThread = [...fake.channelMessages.values()].some((list) =>
        list.some((m) => m['id'] === channel),
      );
      for (const m of messages) {
        const request = creates.find(
          (r) => r.path === `/channels/${channel}/messages` && bodyOf(r)['nonce'] === m['nonce'],
        );
        const raw = embedStrings(m);
        all.push({
          id: String(m['id']),
          channel,
          ...(isThread ? { threadOf: channel } : {}),
          text: visible(raw),
          raw,
          files: request?.files.map((f) => new Uint8Array(f.data)) ?? [],
          shape: 'embed',
          ...(typeof m['nonce'] === 'string' ? { deliveryKey: m['nonce'] } : {}),
          allowedMentions: request ? bodyOf(request)['allowed_mentions'] : undefined,
        });
      }
    }
    return all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  }

  function edits(): ChannelEdit[] {
    return fake.requests.flatMap((r) => {
      const match = r.method === 'PATCH' ? /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(r.path) : null;
      if (!match) return [];
      const raw = embedStrings(bodyOf(r));
      return [{ channel: match[1] ?? '', id: match[2] ?? '', text: visible(raw), raw }];
    });
  }

  return {
    platform: 'discord',
    mode: mode === 'gateway' ? 'Discord gateway' : 'Discord HTTP interactions',
    channel: channels.main,
    otherChannel: channels.other,
    lockedChannel: channels.locked,
    secrets: [fake.token],
    async configSection() {
      if (mode === 'gateway') return { discord: { enabled: true, apiUrl: fake.apiUrl } };
      port = await freePort();
      return { discord: { enabled: true, mode: 'http', applicationId: fake.applicationId, port } };
    },
    env: () => ({
      DISCORD_TOKEN: fake.token,
      ...(mode === 'http' ? { DISCORD_PUBLIC_KEY: signed.publicKeyHex, DISCORD_API_URL: fake.apiUrl } : {}),
    }),
    async connected(bot: BotProcess) {
      await bot.waitForLog(/fundbot is running/, 'fundbot is running', processStartMs);
      if (mode === 'gateway') {
        await waitUntil('the gateway IDENTIFY', () => fake.gatewayReceived.find((p) => p.op === 2), {
          timeoutMs: 10_000,
        });
      } else {
        const pong = await signed.post(endpoint(), signed.ping());
        if (pong.status !== 200)
          throw new Error(`the interactions endpoint answered a PING with ${pong.status}`);
      }
    },
    command,
    posts,
    edits,
    answerNextPostLate(lateMs) {
      // Discord keeps a nonce for a short, undocumented while: here shorter than the bot's repeat takes.
      fake.setNonceWindowMs(5_000);
      fake.faultMessages(lateCreate(lateMs), 1);
      const armedAt = Date.now();
      const taken = () =>
        fake.requests.findIndex(
          (r, i) =>
            r.method === 'POST' &&
            r.path === `/channels/${channels.main}/messages` &&
            (fake.requestTimes[i] ?? 0) >= armedAt,
        );
      return {
        landed: () => {
          const i = taken();
          return i >= 0 && Date.now() >= (fake.requestTimes[i] ?? 0) + lateMs + 500;
        },
        done: () => fake.setNonceWindowMs(Number.POSITIVE_INFINITY),
      };
    },
    recordedText: () =>
      JSON.stringify(fake.requests.map((r) => ({ path: r.path, query: r.query, body: r.body }))),
    close: () => fake.close(),
    fake,
    signed,
    endpoint,
  };
}

function bodyOf(request: RecordedRequest): Body {
  return (request.body ?? {}) as Body;
}

function flagsOf(data: Record<string, unknown> | undefined): number {
  return typeof data?.['flags'] === 'number' ? data['flags'] : 0;
}

function answerOf(data: Record<string, unknown>, at: number, request?: RecordedRequest): AnswerMessage {
  const raw = embedStrings(data);
  return {
    visibility: flagsOf(data) & ephemeral ? 'private' : 'public',
    text: visible(raw),
    raw,
    files: request?.files.map((f) => new Uint8Array(f.data)) ?? [],
    at,
  };
}

/** Every string of a message a reader sees: content, and each embed's author, title, description, fields, footer. */
function embedStrings(message: Record<string, unknown>): RenderedText[] {
  const strings: RenderedText[] = [];
  // Discord reads markdown in the content, an embed's title, description and fields; not in author or footer.
  const add = (text: unknown, parsed: boolean) => {
    if (typeof text === 'string' && text !== '') strings.push({ text, parsed });
  };
  add(message['content'], true);
  const embeds = Array.isArray(message['embeds']) ? (message['embeds'] as Record<string, unknown>[]) : [];
  for (const embed of embeds) {
    add((embed['author'] as { name?: string } | undefined)?.name, false);
    add(embed['title'], true);
    add(embed['description'], true);
    for (const field of (embed['fields'] as { name: string; value: string }[] | undefined) ?? []) {
      add(`${field.name}: ${field.value}`, true);
    }
    add((embed['footer'] as { text?: string } | undefined)?.text, false);
  }
  return strings;
}

/** What a reader sees of a message's strings. */
function visible(strings: readonly RenderedText[]): string {
  return discordVisible(strings.map((s) => s.text).join('\n'));
}
