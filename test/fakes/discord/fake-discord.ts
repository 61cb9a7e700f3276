import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChannelStore, defaultGuild } from './channel-store.js';
import {
  channelPayload,
  type FakeGuild,
  type FakePermissionOverwrite,
  type FakeUser,
} from './fake-discord-payloads.js';
import { type ChannelFault, createFaultSwitches, type MessageFault } from './faults.js';
import { attachGateway } from './gateway.js';
import {
  type AutocompleteInteraction,
  type ChatInputInteraction,
  type InteractionType,
  interactionPayload,
  type SentInteraction,
} from './interactions.js';
import type { RecordedRequest } from './recorded-request.js';
import { createRequestLog } from './request-log.js';
import { createRestHandler } from './rest-routes.js';

/**
 * A small fake Discord on 127.0.0.1: REST under `/api/v10` and a gateway on the
 * same port. It records every REST call, speaks the gateway handshake discord.js
 * needs (HELLO, heartbeat ACK, READY, GUILD_CREATE) and can push interactions.
 * Point a client at it with `rest: { api: fake.apiUrl }`: the client finds the
 * gateway through `GET /gateway/bot`.
 *
 * Threads: Start Thread from Message (`POST /channels/{id}/messages/{mid}/threads`)
 * opens a public thread whose id is the message's, as Discord does; a second start on
 * the same message answers 160004. The thread is then a channel of its own: GET,
 * Create Message, list and PATCH work on it.
 *
 * This module wires the parts together: `rest-routes.ts` (REST), `gateway.ts`,
 * `interactions.ts`, `channel-store.ts` (channels, threads, messages, nonces),
 * `permissions.ts` (the bot's permissions per channel, which Create Message obeys),
 * `faults.ts` (injected failures) and `request-log.ts` (recorded calls).
 */

export { defaultGuild } from './channel-store.js';
export { type ChannelFault, channelFaults, type MessageFault } from './faults.js';
export {
  type AutocompleteInteraction,
  type ChatInputInteraction,
  defaultMember,
  type InteractionMember,
  type SentInteraction,
} from './interactions.js';

import { createDirectMessages } from './direct-messages.js';

export { type LateLandingMessageFault, lateCreate, resetAfterCreate } from './late-landings.js';
export type { RecordedFile, RecordedRequest } from './recorded-request.js';

export interface FakeDiscordOptions {
  /**
   * How long `enforce_nonce` dedupes a repeat (Discord: a few minutes, undocumented).
   * Default: forever. 0 turns nonce dedupe off, to test what happens after the window.
   */
  readonly nonceWindowMs?: number;
  /** The bot token the fake accepts (`Authorization: Bot <token>`). */
  readonly token?: string;
  readonly applicationId?: string;
  readonly guilds?: readonly FakeGuild[];
  /** Long by default: discord.js jitters its first beat within it, and tests should not depend on it. */
  readonly heartbeatIntervalMs?: number;
  /** Waits for late landings and answers (default: real timers). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The clock of message ids, nonce windows and deletions (default Date.now): a test's virtual clock. */
  readonly now?: () => number;
}

export interface FakeDiscord {
  /** REST base for discord.js's `rest.api` option (without `/v10`). */
  readonly apiUrl: string;
  readonly gatewayUrl: string;
  readonly token: string;
  readonly applicationId: string;
  readonly botUser: FakeUser;
  readonly requests: readonly RecordedRequest[];
  /** Gateway payloads received from clients (IDENTIFY, heartbeats...). */
  readonly gatewayReceived: readonly { readonly op: number; readonly d: unknown }[];
  /** Cuts the gateway sessions (a network drop); the clients reconnect. */
  dropGatewayConnections(): void;
  /** Messages created per channel (after nonce dedupe), deleted ones gone. */
  readonly channelMessages: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /** Messages deleted (Delete Message), with when (epoch ms). */
  readonly deletedMessages: readonly {
    readonly channelId: string;
    readonly message: Record<string, unknown>;
    readonly at: number;
  }[];
  /** Last PUT of application commands per scope: 'global' or the guild id. */
  readonly registeredCommands: ReadonlyMap<string, unknown>;
  /** The bot's direct messages to a user (Create DM, then Create Message in that channel), oldest first. */
  directMessagesTo(userId: string): readonly Record<string, unknown>[];
  /** Makes a user unreachable by DM (Create Message answers 50007), or reachable again. */
  setDmUnreachable(userId: string, unreachable: boolean): void;
  /** Changes how long a nonce dedupes (ms; see FakeDiscordOptions.nonceWindowMs). */
  setNonceWindowMs(ms: number): void;
  /** Makes the next `times` Create Message calls (any channel) behave as `fault`. */
  faultMessages(fault: MessageFault, times?: number): void;
  /** Epoch ms of every request, in order (for rate-limit timing). */
  readonly requestTimes: readonly number[];
  /**
   * An admin edits a channel's permission overwrites: Create Message there answers from
   * the bot's permissions (50013 without Send Messages), and connected clients get a
   * CHANNEL_UPDATE, as from Discord.
   */
  setPermissionOverwrites(channelId: string, overwrites: readonly FakePermissionOverwrite[]): void;
  /**
   * The server removes the bot (GUILD_DELETE), or has an outage (GUILD_DELETE with `unavailable`),
   * as Discord tells connected sessions.
   */
  removeFromGuild(guildId: string, how?: 'removed' | 'outage'): void;
  /** Makes a channel fail GET and Create Message with Discord's error (undefined heals it). */
  failChannel(channelId: string, fault: ChannelFault | undefined): void;
  /** Makes every interaction callback fail (e.g. 10062 Unknown Interaction), or succeed again with undefined. */
  failInteractionCallbacks(fault: ChannelFault | undefined): void;
  /** Makes every PATCH of an interaction's message fail, or succeed again with undefined. */
  failWebhookEdits(fault: ChannelFault | undefined): void;
  sendChatInput(interaction: ChatInputInteraction): SentInteraction;
  sendAutocomplete(interaction: AutocompleteInteraction): SentInteraction;
  /** Resolves with the first recorded request (past or future) that matches. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/** GatewayIntentBits.GuildMessages. */
const guildMessagesIntent = 1 << 9;

export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const token = options.token ?? 'fake-bot-token.ABCDEFGH.ijklmnopqrstuvwxyz';
  const applicationId = options.applicationId ?? '400000000000000001';
  const guilds = options.guilds ?? [defaultGuild];
  const botUser: FakeUser = { id: applicationId, username: 'fundbot', global_name: null, bot: true };
  const log = createRequestLog();
  const faults = createFaultSwitches();
  const now = options.now ?? Date.now;
  const store = createChannelStore(guilds, options.nonceWindowMs ?? Number.POSITIVE_INFINITY, now);
  const registeredCommands = new Map<string, unknown>();
  const announcedThreads = new Set<string>();
  const dms = createDirectMessages();

  // Listen first: the routes and the gateway need the port in their URLs. Nothing
  // can call before this function returns them.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiUrl = `http://127.0.0.1:${port}/api`;
  const gatewayUrl = `ws://127.0.0.1:${port}`;

  server.on(
    'request',
    createRestHandler({
      apiUrl,
      gatewayUrl,
      token,
      applicationId,
      botUser,
      log,
      faults,
      store,
      dms,
      registeredCommands,
      sleep: options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
      now,
    }),
  );
  const gateway = attachGateway(server, {
    url: gatewayUrl,
    applicationId,
    botUser,
    guilds: () => store.guildsNow(),
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 45_000,
  });
  // Every message created, the bot's own included, reaches the sessions that asked for GuildMessages (1 << 9);
  // a thread started through the API reaches every session (Guilds), so discord.js knows its channel.
  store.onMessage((channelId, message) => {
    const known = store.channel(channelId);
    if (!known) return;
    if (known.channel.parentId && !announcedThreads.has(channelId)) {
      announcedThreads.add(channelId);
      gateway.broadcast('THREAD_CREATE', {
        ...channelPayload(known.channel, known.guildId),
        newly_created: true,
      });
    }
    gateway.broadcast('MESSAGE_CREATE', { ...message, guild_id: known.guildId }, guildMessagesIntent);
  });

  function sendInteraction(
    type: InteractionType,
    interaction: ChatInputInteraction,
    focused?: string,
  ): SentInteraction {
    const { payload, sent } = interactionPayload(type, interaction, { applicationId, guilds }, focused);
    gateway.broadcast('INTERACTION_CREATE', payload);
    return sent;
  }

  return {
    apiUrl,
    gatewayUrl,
    token,
    applicationId,
    botUser,
    requests: log.requests,
    gatewayReceived: gateway.received,
    dropGatewayConnections: () => gateway.drop(),
    channelMessages: store.channelMessages,
    deletedMessages: store.deleted,
    registeredCommands,
    directMessagesTo: dms.messagesTo,
    setDmUnreachable: dms.setUnreachable,
    requestTimes: log.requestTimes,
    setNonceWindowMs: store.setNonceWindowMs,
    faultMessages: (fault, times = 1) => faults.faultMessages(fault, times),
    setPermissionOverwrites: (channelId, overwrites) => {
      const changed = store.setOverwrites(channelId, overwrites);
      if (!changed) throw new Error(`fake Discord: no channel ${channelId}`);
      gateway.broadcast('CHANNEL_UPDATE', channelPayload(changed.channel, changed.guildId));
    },
    removeFromGuild: (guildId, how = 'removed') =>
      gateway.broadcast(
        'GUILD_DELETE',
        how === 'outage' ? { id: guildId, unavailable: true } : { id: guildId },
      ),
    failChannel: faults.failChannel,
    failInteractionCallbacks: (fault) => {
      faults.interactionCallbackFault = fault;
    },
    failWebhookEdits: (fault) => {
      faults.webhookEditFault = fault;
    },
    sendChatInput: (interaction) => sendInteraction(2, interaction),
    sendAutocomplete: (interaction) => sendInteraction(4, interaction, interaction.focused),
    waitForRequest: log.waitForRequest,
    async close() {
      await gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
