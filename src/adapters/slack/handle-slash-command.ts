import type { RespondFn, SlashCommand } from '@slack/bolt';
import type { ChannelRef, CommandContext, CommandCore, Locale, NeutralMessage } from '../../core/index.js';
import { catalogFor, parseCommandArguments, parseErrorMessage } from '../../core/index.js';
import type { CommandDefinition } from '../../domain/command-definitions.js';
import type { Logger } from '../../domain/logger.js';
import { renderBlocks } from './render-blocks.js';
import type { SlackUserLookup } from './slack-user-lookup.js';

export interface SlashCommandDeps {
  readonly core: CommandCore;
  readonly definitions: readonly CommandDefinition[];
  readonly users: SlackUserLookup;
  /** User ids allowed to administer whatever Slack says (FUNDBOT_SLACK_ADMINS). */
  readonly admins: ReadonlySet<string>;
  readonly logger: Logger;
  /**
   * Posts a public reply that carries a PNG (the /chart and /digest chart) as the
   * digest is posted: response_url cannot carry files. Without it the reply goes
   * out without the image.
   */
  readonly postWithAttachment?: (channel: ChannelRef, message: NeutralMessage) => Promise<void>;
}

/** The Slack name of a command, with its slash: `/funding`, `/fundbot-status`. */
export function slackCommandName(definition: CommandDefinition): string {
  return `/${definition.slackName ?? definition.name}`;
}

/**
 * Runs one slash command AFTER it was acknowledged: parse `text`, ask Slack who the
 * user is, run the core, answer through response_url (valid 30 minutes, so a slow
 * API call cannot make the reply fail the way a late ack would). Never throws: every
 * outcome, including fundbot's own failures, becomes a reply to the user.
 */
export function createSlashCommandHandler(
  deps: SlashCommandDeps,
): (command: SlashCommand, respond: RespondFn) => Promise<void> {
  const byName = new Map(deps.definitions.map((d) => [slackCommandName(d), d]));

  const reply = async (respond: RespondFn, message: NeutralMessage) => {
    const { blocks, text } = renderBlocks(message);
    await respond({ response_type: message.private ? 'ephemeral' : 'in_channel', blocks, text });
  };

  return async (command, respond) => {
    const channel: ChannelRef = {
      platform: 'slack',
      workspaceId: command.team_id,
      channelId: command.channel_id,
    };
    const locale = await deps.core.localeFor(channel).catch((): Locale => 'en');
    const t = catalogFor(locale).errors;
    try {
      const definition = byName.get(command.command);
      if (!definition) {
        await reply(respond, { text: t.unknownCommand(command.command), tone: 'error', private: true });
        return;
      }
      const parsed = parseCommandArguments(definition, command.text ?? '');
      if (!parsed.ok) {
        await reply(respond, parseErrorMessage(parsed.error, locale, 'slack'));
        return;
      }
      const facts = await deps.users.lookup(command.team_id, command.user_id);
      const context: CommandContext = {
        user: { id: command.user_id, displayName: facts.displayName ?? command.user_name ?? command.user_id },
        channel,
        canAdminister: deps.admins.has(command.user_id) || facts.isWorkspaceAdmin,
        ...(facts.locale ? { platformLocale: facts.locale } : {}),
      };
      const message = await deps.core.execute({ name: definition.name, options: parsed.options, context });
      if (message.image?.kind === 'attachment' && !message.private && deps.postWithAttachment) {
        await deps.postWithAttachment(channel, message);
        return;
      }
      await reply(respond, message);
    } catch (error) {
      deps.logger.error(
        { err: error instanceof Error ? error.message : String(error), command: command.command },
        'Slack slash command failed',
      );
      await reply(respond, { text: t.internal, tone: 'error', private: true }).catch(
        (replyError: unknown) => {
          // The response_url may have expired (30 minutes) or Slack is down: nothing left to tell the user.
          deps.logger.warn(
            { err: replyError instanceof Error ? replyError.message : String(replyError) },
            'Slack respond() failed',
          );
        },
      );
    }
  };
}
