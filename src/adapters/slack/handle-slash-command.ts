import type { RespondFn, SlashCommand, webApi } from '@slack/bolt';
import type { ChannelRef, CommandContext, CommandCore, Locale, NeutralMessage } from '../../core/index.js';
import {
  catalogFor,
  commandUsage,
  parseErrorMessage,
  parseSubcommandText,
  privateError,
} from '../../core/index.js';
import { type CommandDefinition, slackCommand } from '../../domain/command-definitions.js';
import type { Logger } from '../../domain/logger.js';
import { connectFormView } from './connect-form.js';
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

/** fundbot's one Slack command, with its slash. */
export const slackCommandName = `/${slackCommand.name}`;

/**
 * Runs one `/fundbot <subcommand> …` AFTER it was acknowledged: parse `text`, ask Slack who the
 * user is, run the core, answer through response_url (valid 30 minutes, so a slow
 * API call cannot make the reply fail the way a late ack would). Never throws: every
 * outcome, including fundbot's own failures, becomes a reply to the user.
 */
export function createSlashCommandHandler(
  deps: SlashCommandDeps,
): (
  command: SlashCommand,
  respond: RespondFn,
  openView?: (view: webApi.View) => Promise<unknown>,
) => Promise<void> {
  const reply = async (respond: RespondFn, message: NeutralMessage) => {
    const { blocks, text } = renderBlocks(message);
    await respond({ response_type: message.private ? 'ephemeral' : 'in_channel', blocks, text });
  };

  return async (command, respond, openView) => {
    const channel: ChannelRef = {
      platform: 'slack',
      workspaceId: command.team_id,
      channelId: command.channel_id,
    };
    const locale = await deps.core.localeFor(channel).catch((): Locale => 'en');
    const t = catalogFor(locale).errors;
    try {
      // Another command routed to this app (an old manifest still declaring /funding): say what to type now.
      if (command.command !== slackCommandName) {
        const word = command.command.replace(/^\//, '');
        const known = deps.definitions.find((d) => d.name === word);
        const message: NeutralMessage = known
          ? privateError(locale, t.useSlackCommand(command.command, commandUsage(known, 'slack')))
          : parseErrorMessage(
              {
                code: 'unknown-subcommand',
                subcommand: word,
                subcommands: deps.definitions.map((d) => d.name),
              },
              locale,
              'slack',
            );
        await reply(respond, message);
        return;
      }
      const parsed = parseSubcommandText(command.text ?? '', deps.definitions);
      if (!parsed.ok) {
        await reply(respond, parseErrorMessage(parsed.error, locale, 'slack'));
        return;
      }
      const definition = parsed.command;
      const facts = await deps.users.lookup(command.team_id, command.user_id);
      const context: CommandContext = {
        user: { id: command.user_id, displayName: facts.displayName ?? command.user_name ?? command.user_id },
        channel,
        canAdminister: deps.admins.has(command.user_id) || facts.isWorkspaceAdmin,
        ...(facts.locale ? { platformLocale: facts.locale } : {}),
      };
      const message = await deps.core.execute({ name: definition.name, options: parsed.options, context });
      // /fundbot connect: the private form (views.open needs the trigger id within 3 s of the command).
      if (message.form === 'connect-project' && openView) {
        const opened = await openView(connectFormView(locale, command.channel_id)).then(
          () => true,
          (error: unknown) => {
            deps.logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              'Slack views.open of the connect form failed',
            );
            return false;
          },
        );
        if (opened) return;
        // Not "fill in the form fundbot opened": there is none. Say so, and what to do (issue 30).
        const hosted = catalogFor(locale).hosted;
        await reply(respond, {
          title: hosted.formTitle,
          text: hosted.formFailed(`${slackCommandName} connect`),
          tone: 'error',
          private: true,
        });
        return;
      }
      if (message.image?.kind === 'attachment' && !message.private && deps.postWithAttachment) {
        await deps.postWithAttachment(channel, message);
        return;
      }
      await reply(respond, message);
      // e.g. /fundbot subscribe's public "now watching" after the private confirmation. Its failure
      // is logged, not answered with an error: the command itself succeeded and was confirmed.
      if (message.followUp) {
        await reply(respond, message.followUp).catch((followUpError: unknown) => {
          deps.logger.warn(
            { err: followUpError instanceof Error ? followUpError.message : String(followUpError) },
            'Slack respond() of the follow-up failed',
          );
        });
      }
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
