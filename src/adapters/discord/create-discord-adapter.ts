import { once } from 'node:events';
import {
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  Client,
  Events,
  GatewayIntentBits,
  type Interaction,
  type InteractionReplyOptions,
  MessageFlags,
  type ModalSubmitInteraction,
} from 'discord.js';
import type { ChannelAccess, ChannelRef, CommandCore, NeutralMessage } from '../../core/index.js';
import type { ChannelPoster, Sighting } from '../../delivery/index.js';
import { type Clock, systemClock } from '../../lib/clock.js';
import { adapterText } from './adapter-texts.js';
import { connectModal, gatewayConnectSubmission } from './connect-modal.js';
import { createDiscordPoster } from './create-discord-poster.js';
import { describeError } from './describe-error.js';
import { createDiscordChannelAccess } from './discord-channel-access.js';
import { closeDiscordRest, discordRestOptions } from './discord-rest.js';
import { createDiscordHttpAdapter, type DiscordHttpAdapterOptions } from './http-interactions/index.js';
import {
  autocompleteChoices,
  contextFromInteraction,
  discordCommandDefinition,
  invocationFromInteraction,
  suggestsProjects,
} from './interaction-invocation.js';
import { type DiscordAdapterLogger, silentLogger } from './logger.js';
import { listenForOwnMessages } from './own-message-create.js';
import { type DiscordRendering, renderEmbed } from './render-embed.js';
import { type ForgetWorkspace, forgetOnServerRemoval } from './server-removal.js';

export interface DiscordAdapterOptions {
  /** The bot token (DISCORD_TOKEN). Never logged. */
  readonly token: string;
  readonly core: CommandCore;
  readonly logger?: DiscordAdapterLogger;
  /**
   * REST base URL without the version (DISCORD_API_URL / `discord.apiUrl`; default
   * Discord's `https://discord.com/api`); tests point it at a fake. The config
   * validates it (https, or http only to localhost).
   */
  readonly apiUrl?: string;
  /** @deprecated the former name of {@link apiUrl}. */
  readonly restApiUrl?: string;
  /** How long Discord dedupes a repeated nonce (default 120 s; see createDiscordPoster). */
  readonly nonceWindowMs?: number;
  /**
   * Told when the bot's right to post may have changed: a channel's permission overwrites
   * (that channel) or a role (the whole server). The delivery pipeline re-checks the
   * channels it holds notices for.
   */
  readonly onAccessChanged?: (scope: ChannelRef | Pick<ChannelRef, 'platform' | 'workspaceId'>) => void;
  /** Gateway mode: deletes what is stored for a server that removed fundbot (server-removal.ts). */
  readonly forgetWorkspace?: ForgetWorkspace;
  /** Told of each of the bot's own notices `MESSAGE_CREATE` shows (GuildMessages intent): own-message-create.ts. */
  readonly onOwnMessage?: (sighting: Sighting) => void;
  /** Told when the gateway session drops: own-message events of the gap may be lost. */
  readonly onOwnMessagesInterrupted?: () => void;
  /**
   * Times the deferral and the stop drain. Discord's 3-second deadline is wall-clock
   * time, so this must tick in real time (systemClock, the default) outside tests.
   */
  readonly clock?: Clock;
  /**
   * How long a command may run before the adapter defers it. Discord drops an
   * interaction that gets no first response within 3 s; 2 s leaves a margin for
   * the callback's own round trip. Tests set a few milliseconds.
   */
  readonly deferAfterMs?: number;
  /** REST request timeout (default 15 s). */
  readonly restTimeoutMs?: number;
  /** REST retries on 5xx and network errors (default 3; the outbox retries posts itself). */
  readonly restRetries?: number;
  /** How long `stop()` waits for commands in flight before closing (default 5 s). */
  readonly drainTimeoutMs?: number;
  /**
   * 'gateway' (default): one process holds a gateway session. 'http': Discord posts
   * signed interactions to an endpoint any replica can answer; no gateway is opened.
   */
  readonly mode?: 'gateway' | 'http';
  /** http mode: the application id, its public key, where to listen and where handled interactions are claimed. */
  readonly http?: Pick<
    DiscordHttpAdapterOptions,
    'applicationId' | 'publicKey' | 'port' | 'host' | 'path' | 'claims'
  >;
}

export interface DiscordAdapter {
  /** Logs in over the gateway and resolves once the client is ready (guilds and channels cached). */
  start(): Promise<void>;
  /** Lets commands in flight finish (bounded), then closes the gateway connection. */
  stop(): Promise<void>;
  /** Posts notices into Discord channels. */
  readonly poster: ChannelPoster;
  /** http mode, once started: the interactions endpoint's local URL. */
  readonly url?: string | undefined;
  /** For /subscribe: whether the bot may post in a channel (its permissions there). */
  readonly channelAccess: ChannelAccess;
}

const noMentions = { parse: [] } as const;

/**
 * The Discord adapter on discord.js (gateway mode, Guilds intent: slash commands
 * arrive as interactions and need no message content; GuildMessages too when the
 * delivery pipeline watches the bot's own posts, `onOwnMessage`). It turns
 * interactions into the core's {@link CommandInvocation}s and renders the core's
 * messages as embeds; its poster delivers notices with an idempotent nonce.
 */
export function createDiscordAdapter(options: DiscordAdapterOptions): DiscordAdapter {
  if (options.mode === 'http') {
    if (!options.http) {
      throw new Error(
        'Discord http mode needs the application id and public key (Developer Portal → General Information)',
      );
    }
    // The http adapter names the REST base `restApiUrl`: DISCORD_API_URL must reach it too.
    const restApiUrl = options.apiUrl ?? options.restApiUrl;
    return createDiscordHttpAdapter({ ...options, ...options.http, ...(restApiUrl ? { restApiUrl } : {}) });
  }
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const deferAfterMs = options.deferAfterMs ?? 2_000;
  const secrets = [options.token];
  const apiUrl = options.apiUrl ?? options.restApiUrl;
  const restTimeoutMs = options.restTimeoutMs ?? 15_000;
  const client = new Client({
    // GuildMessages (not privileged) only for the bot's own notices: the delivery pipeline's witness.
    intents: options.onOwnMessage
      ? [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]
      : [GatewayIntentBits.Guilds],
    // Nothing in any message may ping: the client default covers replies, edits,
    // follow-ups and channel posts; each call sets it again to be explicit.
    allowedMentions: noMentions,
    rest: discordRestOptions({ apiUrl, timeoutMs: restTimeoutMs, retries: options.restRetries ?? 3 }),
  });
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  if (options.forgetWorkspace) forgetOnServerRemoval(client, options.forgetWorkspace, logger);
  if (options.onOwnMessage)
    listenForOwnMessages(client, options.onOwnMessage, options.onOwnMessagesInterrupted);

  client.on(Events.Error, (error) => logger.error(describeError(error, secrets), 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn({ detail: message }, 'discord client warning'));
  const accessChanged = options.onAccessChanged;
  if (accessChanged) {
    client.on(Events.ChannelUpdate, (_old, channel) => {
      if (!channel.isDMBased())
        accessChanged({ platform: 'discord', workspaceId: channel.guildId, channelId: channel.id });
    });
    client.on(Events.GuildRoleUpdate, (_old, role) =>
      accessChanged({ platform: 'discord', workspaceId: role.guild.id }),
    );
  }
  client.on(Events.InteractionCreate, (interaction) => {
    if (stopping) return;
    const handling = handleInteraction(interaction).finally(() => inFlight.delete(handling));
    inFlight.add(handling);
  });

  async function handleInteraction(interaction: Interaction): Promise<void> {
    try {
      if (interaction.isChatInputCommand()) await handleCommand(interaction);
      else if (interaction.isAutocomplete()) await handleAutocomplete(interaction);
      else if (interaction.isModalSubmit()) await handleConnectSubmit(interaction);
    } catch (error) {
      logger.error(
        { ...describeError(error, secrets), interactionId: interaction.id },
        'discord interaction failed',
      );
      if (interaction.isChatInputCommand()) await apologize(interaction);
    }
  }

  /** After an adapter failure, a private generic error if the interaction can still take one. */
  async function apologize(interaction: ChatInputCommandInteraction): Promise<void> {
    const notice = privateNotice(adapterText('genericError', interaction.locale));
    try {
      if (!interaction.deferred && !interaction.replied) {
        await interaction.reply(notice);
      } else if (interaction.deferred && !interaction.replied && interaction.ephemeral) {
        await interaction.editReply({ embeds: notice.embeds, allowedMentions: noMentions });
      } else {
        await interaction.followUp(notice);
        // A public "thinking…" placeholder would otherwise stay until Discord gives up on it.
        if (interaction.deferred && !interaction.ephemeral) await interaction.deleteReply().catch(() => {});
      }
    } catch (error) {
      logger.warn(
        { ...describeError(error, secrets), interactionId: interaction.id },
        'could not report the error',
      );
    }
  }

  async function handleCommand(interaction: ChatInputCommandInteraction): Promise<void> {
    const locale = interaction.locale;
    if (!interaction.inGuild()) {
      await interaction.reply(privateNotice(adapterText('guildOnly', locale)));
      return;
    }
    const definition = discordCommandDefinition(interaction.commandName);
    const invocation = invocationFromInteraction(interaction);
    // default_member_permissions only hides the command by default: a server
    // owner can open it to anyone, so the permission is checked again here.
    if (definition?.admin && !invocation.context.canAdminister) {
      logger.info(
        { command: invocation.name, userId: invocation.context.user.id, guildId: interaction.guildId },
        'discord admin command refused: member lacks Manage Server',
      );
      await interaction.reply(privateNotice(adapterText('adminOnly', locale)));
      return;
    }

    const outcome = executeSafely(invocation, interaction.id, locale);
    const early = await settledWithin(outcome, deferAfterMs);
    if (early?.message.form === 'connect-project') {
      // /connect: the private form; its submission comes back as a modal submit (handleConnectSubmit).
      await interaction.showModal(connectModal(locale) as Parameters<typeof interaction.showModal>[0]);
      return;
    }
    if (early) {
      await interaction.reply(replyOptions(early.message));
      await sendFollowUp(interaction, early.message);
      return;
    }
    // Visibility must be chosen before the answer exists. Admin commands answer
    // privately (confirmations, errors), the others publicly. If the answer turns
    // out the other way, it goes out as a follow-up with the right visibility and
    // the placeholder is deleted: a private error never shows in the channel, and
    // the follow-up comes first so the user gets the answer even if the delete fails.
    const deferredPrivate = definition?.admin ?? false;
    await interaction.deferReply(deferredPrivate ? { flags: MessageFlags.Ephemeral } : {});
    const message = await outcome;
    if ((message.private ?? false) === deferredPrivate) {
      await interaction.editReply({ ...renderEmbed(message), allowedMentions: noMentions });
      await sendFollowUp(interaction, message);
      return;
    }
    await interaction.followUp(replyOptions(message));
    await interaction.deleteReply();
    await sendFollowUp(interaction, message);
  }

  /** A submitted connect form: the key check can take seconds, so the private answer is deferred first. */
  async function handleConnectSubmit(interaction: ModalSubmitInteraction): Promise<void> {
    const invocation = gatewayConnectSubmission(interaction);
    if (!invocation) return;
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const message = await executeSafely(invocation, interaction.id, interaction.locale);
    await interaction.editReply({ ...renderEmbed(message), allowedMentions: noMentions });
  }

  /** The answer's second message, e.g. /subscribe's public "now watching", with its own visibility. */
  async function sendFollowUp(
    interaction: ChatInputCommandInteraction,
    message: NeutralMessage,
  ): Promise<void> {
    if (!message.followUp) return;
    // The command succeeded and was answered: a lost follow-up is logged, not apologised for.
    await interaction.followUp(replyOptions(message.followUp)).catch((error: unknown) => {
      logger.warn(
        { ...describeError(error, secrets), interactionId: interaction.id },
        'could not send the answer’s follow-up',
      );
    });
  }

  /** The core's answer, or a private generic error: the core should not throw, but an adapter must not go silent. */
  async function executeSafely(
    invocation: ReturnType<typeof invocationFromInteraction>,
    interactionId: string,
    locale: string,
  ): Promise<NeutralMessage> {
    try {
      return await options.core.execute(invocation);
    } catch (error) {
      logger.error(
        { ...describeError(error, secrets), command: invocation.name, interactionId },
        'command failed in the core',
      );
      return { text: adapterText('genericError', locale), tone: 'error', private: true };
    }
  }

  /** Resolves with the outcome if it settles within `ms`, else with undefined; leaves no timer behind. */
  async function settledWithin(
    outcome: Promise<NeutralMessage>,
    ms: number,
  ): Promise<{ message: NeutralMessage } | undefined> {
    const timer = new AbortController();
    try {
      return await Promise.race([
        outcome.then((message) => ({ message })),
        clock.sleep(ms, timer.signal).then(
          () => undefined,
          () => undefined,
        ),
      ]);
    } finally {
      timer.abort();
    }
  }

  async function handleAutocomplete(interaction: AutocompleteInteraction): Promise<void> {
    const focused = interaction.options.getFocused(true);
    if (!interaction.inGuild() || !suggestsProjects(interaction.commandName, focused.name)) {
      await interaction.respond([]);
      return;
    }
    let suggestions: Awaited<ReturnType<CommandCore['autocomplete']>> = [];
    try {
      suggestions = await options.core.autocomplete(
        interaction.commandName,
        focused.name,
        String(focused.value),
        contextFromInteraction(interaction),
      );
    } catch (error) {
      logger.warn(
        { ...describeError(error, secrets), command: interaction.commandName },
        'autocomplete failed',
      );
    }
    await interaction.respond(autocompleteChoices(suggestions));
  }

  const poster = createDiscordPoster({
    client,
    token: options.token,
    apiUrl,
    restTimeoutMs,
    ...(options.nonceWindowMs !== undefined ? { nonceWindowMs: options.nonceWindowMs } : {}),
  });

  return {
    poster,
    channelAccess: createDiscordChannelAccess(client),
    async start() {
      const abort = new AbortController();
      const ready = once(client, Events.ClientReady, { signal: abort.signal });
      try {
        await client.login(options.token);
        await ready;
      } catch (error) {
        abort.abort();
        await ready.catch(() => undefined);
        await client.destroy();
        await closeDiscordRest(client.rest);
        await poster.close();
        throw new Error(
          'Discord login failed: check DISCORD_TOKEN (Developer Portal → Bot → Reset Token) and that the bot ' +
            `can reach Discord (${describeError(error, secrets)['message']})`,
          { cause: error },
        );
      }
      logger.info({ user: client.user?.tag, guilds: client.guilds.cache.size }, 'discord adapter ready');
    },
    async stop() {
      stopping = true;
      const timer = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight]),
        clock.sleep(options.drainTimeoutMs ?? 5_000, timer.signal).catch(() => undefined),
      ]);
      timer.abort();
      await client.destroy();
      await closeDiscordRest(client.rest);
      await poster.close();
    },
  };
}

function replyOptions(message: NeutralMessage): InteractionReplyOptions & { flags?: MessageFlags.Ephemeral } {
  return {
    ...renderEmbed(message),
    allowedMentions: noMentions,
    ...(message.private ? { flags: MessageFlags.Ephemeral as const } : {}),
  };
}

function privateNotice(text: string): DiscordRendering & {
  allowedMentions: typeof noMentions;
  flags: MessageFlags.Ephemeral;
} {
  return {
    ...renderEmbed({ text, tone: 'warning', private: true }),
    allowedMentions: noMentions,
    flags: MessageFlags.Ephemeral,
  };
}
