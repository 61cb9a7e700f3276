import { type APIInteraction, type REST, Routes } from 'discord.js';
import type { CommandCore, CommandInvocation, NeutralMessage } from '../../../core/index.js';
import type { Clock } from '../../../lib/clock.js';
import { adapterText } from '../adapter-texts.js';
import { connectModal, connectSubmission, modalCallbackType } from '../connect-modal.js';
import { describeError } from '../describe-error.js';
import {
  autocompleteChoices,
  contextFromFacts,
  discordCommandDefinition,
  type GuildInteractionFacts,
  invocationFromFacts,
  suggestsProjects,
} from '../interaction-invocation.js';
import type { DiscordAdapterLogger } from '../logger.js';
import { factsFromRawInteraction, focusedOption, interactionTypes } from './raw-interaction.js';
import { ephemeralFlag, restMessage } from './rest-message.js';

/** Discord's interaction callback types fundbot uses. */
const callback = { pong: 1, message: 4, deferredMessage: 5, autocompleteResult: 8 } as const;

/** The HTTP answer to one interaction, and the work that must wait until Discord has it. */
export interface InteractionAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Runs after the answer was sent: completing a deferred answer before Discord has the deferral fails. */
  readonly after?: () => Promise<void>;
}

export interface InteractionHandlerDeps {
  readonly core: CommandCore;
  readonly rest: REST;
  readonly applicationId: string;
  readonly clock: Clock;
  readonly logger: DiscordAdapterLogger;
  /**
   * How long after the request's arrival a command may run before the answer is deferred (Discord's
   * deadline is 3 s; the HTTP adapter's default is 0.5 s, leaving 2.5 s for a busy event loop).
   */
  readonly deferAfterMs: number;
  /** Redacted from every log line. */
  readonly secrets: readonly string[];
}

/**
 * Answers one verified interaction the way the gateway adapter does, but through
 * the HTTP response instead of the callback route:
 * - PING → PONG;
 * - a slash command → the core's answer at once when it comes within
 *   `deferAfterMs`, else a deferral (private for admin commands, whose answers are
 *   confirmations and errors) completed later by `PATCH
 *   /webhooks/{app}/{token}/messages/@original`; an answer whose visibility turns
 *   out the other way goes out as a follow-up and the placeholder is deleted;
 * - autocomplete → the core's project suggestions.
 * An answer's second message (`followUp`, e.g. /subscribe's public "now watching")
 * goes out as a webhook follow-up with its own visibility once the answer is sent,
 * as on the gateway.
 * Cost: no REST request for a fast answer, 1 (edit) or 2 (follow-up, delete)
 * webhook requests for a slow one, plus 1 for a second message; interaction webhooks
 * need no bot token and do not count against the bot's global rate limit.
 */
export function createInteractionHandler(
  deps: InteractionHandlerDeps,
): (interaction: APIInteraction, receivedAt?: number) => Promise<InteractionAnswer> {
  const { core, rest, logger, secrets } = deps;
  const reply = (body: unknown): InteractionAnswer => ({ status: 200, body });
  const privateNotice = (text: string) =>
    reply({
      type: callback.message,
      data: restMessage({ text, tone: 'warning', private: true }, { ephemeral: true }).body,
    });

  async function command(
    interaction: APIInteraction,
    facts: GuildInteractionFacts,
    receivedAt: number | undefined,
    invocation: CommandInvocation = invocationFromFacts(facts),
  ): Promise<InteractionAnswer> {
    const definition = discordCommandDefinition(facts.commandName);
    // default_member_permissions only hides the command by default: a server
    // owner can open it to anyone, so the permission is checked again here.
    if (definition?.admin && !invocation.context.canAdminister) {
      logger.info(
        { command: invocation.name, userId: facts.userId, guildId: facts.guildId },
        'discord admin command refused: member lacks Manage Server',
      );
      return privateNotice(adapterText('adminOnly', facts.locale));
    }
    const outcome = executeSafely(invocation, interaction.id, facts.locale);
    // Measured from the arrival: time spent before the handler got the CPU is already gone. At least 1 ms
    // (0 means "always defer"): a request that arrived late still gets an answer that is ready.
    const left =
      deps.deferAfterMs <= 0 || receivedAt === undefined
        ? deps.deferAfterMs
        : Math.max(1, deps.deferAfterMs - (deps.clock.now() - receivedAt));
    const early = await settledWithin(outcome, left);
    // /connect: the private form (a modal can only be the first answer, never after a deferral).
    if (early?.message.form === 'connect-project') {
      return reply({ type: modalCallbackType, data: connectModal(facts.locale) });
    }
    // An answer with a file (the chart) needs a multipart body: it goes through the webhook instead.
    if (early && early.message.image?.kind !== 'attachment') {
      const { message } = early;
      const { body } = restMessage(message, { ephemeral: message.private ?? false });
      return {
        ...reply({ type: callback.message, data: body }),
        ...(message.followUp ? { after: () => sendFollowUp(interaction, message) } : {}),
      };
    }
    const deferredPrivate = early ? (early.message.private ?? false) : (definition?.admin ?? false);
    return {
      ...reply({ type: callback.deferredMessage, data: deferredPrivate ? { flags: ephemeralFlag } : {} }),
      after: () => complete(interaction, outcome, deferredPrivate, facts.locale),
    };
  }

  /** Fills the deferred answer, or posts it as a follow-up when its visibility differs from the placeholder's. */
  async function complete(
    interaction: APIInteraction,
    outcome: Promise<NeutralMessage>,
    deferredPrivate: boolean,
    locale: string,
  ): Promise<void> {
    const original = Routes.webhookMessage(deps.applicationId, interaction.token, '@original');
    let message: NeutralMessage;
    try {
      message = await outcome;
      if ((message.private ?? false) === deferredPrivate) {
        await rest.patch(original, { ...restMessage(message), auth: false });
      } else {
        // The follow-up comes first, so the user gets the answer even if the delete fails.
        const followUp = restMessage(message, { ephemeral: message.private ?? false });
        await rest.post(Routes.webhook(deps.applicationId, interaction.token), { ...followUp, auth: false });
        await rest.delete(original, { auth: false });
      }
    } catch (error) {
      logger.error(
        { ...describeError(error, secrets), interactionId: interaction.id },
        'discord interaction failed',
      );
      // The placeholder would otherwise say "thinking…" until Discord gives up on it.
      const notice: NeutralMessage = {
        text: adapterText('genericError', locale),
        tone: 'warning',
        private: true,
      };
      await postFollowUp(interaction, notice, 'could not report the error');
      return;
    }
    await sendFollowUp(interaction, message);
  }

  /** The answer's second message, e.g. /subscribe's public "now watching", with its own visibility. */
  async function sendFollowUp(interaction: APIInteraction, message: NeutralMessage): Promise<void> {
    // The command succeeded and was answered: a lost follow-up is logged, not apologised for.
    if (message.followUp)
      await postFollowUp(interaction, message.followUp, 'could not send the answer’s follow-up');
  }

  /** Posts `message` as a follow-up of the interaction (private when it is); a failure is logged as `failure`. */
  async function postFollowUp(interaction: APIInteraction, message: NeutralMessage, failure: string) {
    const body = restMessage(message, { ephemeral: message.private ?? false });
    await rest
      .post(Routes.webhook(deps.applicationId, interaction.token), { ...body, auth: false })
      .catch((error: unknown) =>
        logger.warn({ ...describeError(error, secrets), interactionId: interaction.id }, failure),
      );
  }

  /** The core's answer, or a private generic error: the core should not throw, but an adapter must not go silent. */
  async function executeSafely(
    invocation: ReturnType<typeof invocationFromFacts>,
    interactionId: string,
    locale: string,
  ): Promise<NeutralMessage> {
    try {
      return await core.execute(invocation);
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
    // 0 means "always defer": a fast answer would otherwise win the race (tests of the deferred path).
    if (ms <= 0) return undefined;
    const timer = new AbortController();
    try {
      return await Promise.race([
        outcome.then((message) => ({ message })),
        deps.clock.sleep(ms, timer.signal).then(
          () => undefined,
          () => undefined,
        ),
      ]);
    } finally {
      timer.abort();
    }
  }

  async function autocomplete(
    interaction: APIInteraction,
    facts: GuildInteractionFacts,
  ): Promise<InteractionAnswer> {
    const focused = focusedOption(interaction);
    let suggestions: Awaited<ReturnType<CommandCore['autocomplete']>> = [];
    if (focused && suggestsProjects(facts.commandName, focused.name)) {
      try {
        suggestions = await core.autocomplete(
          facts.commandName,
          focused.name,
          focused.value,
          contextFromFacts(facts),
        );
      } catch (error) {
        logger.warn({ ...describeError(error, secrets), command: facts.commandName }, 'autocomplete failed');
      }
    }
    return reply({ type: callback.autocompleteResult, data: { choices: autocompleteChoices(suggestions) } });
  }

  return async (interaction, receivedAt) => {
    if (interaction.type === interactionTypes.ping) return reply({ type: callback.pong });
    const facts = factsFromRawInteraction(interaction);
    if (interaction.type === interactionTypes.autocomplete) {
      return facts
        ? autocomplete(interaction, facts)
        : reply({ type: callback.autocompleteResult, data: { choices: [] } });
    }
    if (interaction.type === interactionTypes.applicationCommand) {
      return facts
        ? command(interaction, facts, receivedAt)
        : privateNotice(adapterText('guildOnly', interaction.locale));
    }
    // The connect form's submission: the `connect` command with the typed project and key.
    const submitted = connectSubmission(interaction);
    if (submitted) {
      return command(interaction, submitted.facts, receivedAt, {
        name: 'connect',
        options: { project: submitted.project, key: submitted.key },
        context: contextFromFacts(submitted.facts),
      });
    }
    // Buttons and menus: fundbot sends only link buttons, which never reach the bot.
    logger.warn(
      { type: interaction.type, interactionId: interaction.id },
      'discord interaction of an unexpected type',
    );
    return { status: 400, body: { error: 'fundbot answers slash commands and autocomplete only' } };
  };
}
