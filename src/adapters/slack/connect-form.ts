import type { App, webApi } from '@slack/bolt';
import type { ChannelRef, CommandCore, Locale } from '../../core/index.js';
import { catalogFor, isLocale } from '../../core/index.js';
import type { Logger } from '../../domain/logger.js';
import { renderBlocks } from './render-blocks.js';
import type { SlackUserLookup } from './slack-user-lookup.js';

/** The modal's callback id: its submission comes back to {@link listenForConnectForm}. */
export const connectFormCallbackId = 'fundbot_connect';

/**
 * The private form of `/fundbot connect` (views.open): the project's link caption and its API key. The
 * key is typed into Slack's modal, goes straight to fundbot in the view submission, and is never shown
 * in a channel, a log or a message. `private_metadata` carries the channel the command came from.
 */
export function connectFormView(locale: Locale, channelId: string): webApi.View {
  const t = catalogFor(locale).hosted;
  const input = (id: 'project' | 'key', label: string, hint: string) => ({
    type: 'input' as const,
    block_id: id,
    label: { type: 'plain_text' as const, text: label },
    hint: { type: 'plain_text' as const, text: hint },
    element: { type: 'plain_text_input' as const, action_id: id, max_length: id === 'key' ? 200 : 100 },
  });
  return {
    type: 'modal',
    callback_id: connectFormCallbackId,
    private_metadata: JSON.stringify({ channel: channelId, locale }),
    title: { type: 'plain_text', text: t.formTitle.slice(0, 24) },
    submit: { type: 'plain_text', text: t.submit },
    close: { type: 'plain_text', text: '✕' },
    blocks: [input('project', t.projectLabel, t.projectHint), input('key', t.keyLabel, t.keyHint)],
  };
}

/**
 * Runs a submitted connect form: acknowledged at once (the modal closes), then the core's `connect` with the
 * typed `project` and `key`, and the answer shown only to the admin (chat.postEphemeral in the channel the
 * command came from, else a direct message). Admin rights are checked again, here and in the core.
 */
export function listenForConnectForm(
  app: App,
  deps: {
    readonly core: CommandCore;
    readonly users: SlackUserLookup;
    readonly admins: ReadonlySet<string>;
    readonly logger: Logger;
  },
): void {
  app.view(connectFormCallbackId, async ({ ack, body, view, client }) => {
    await ack();
    const teamId = body.team?.id ?? body.user.team_id ?? '';
    const userId = body.user.id;
    const meta = parseMetadata(view.private_metadata);
    const channel: ChannelRef = { platform: 'slack', workspaceId: teamId, channelId: meta.channel ?? userId };
    const value = (id: string) => view.state.values[id]?.[id]?.value ?? '';
    try {
      const facts = await deps.users.lookup(teamId, userId);
      const message = await deps.core.execute({
        name: 'connect',
        options: { project: value('project'), key: value('key') },
        context: {
          user: { id: userId, displayName: facts.displayName ?? body.user.name ?? userId },
          channel,
          canAdminister: deps.admins.has(userId) || facts.isWorkspaceAdmin,
        },
      });
      const { blocks, text } = renderBlocks(message);
      try {
        await client.chat.postEphemeral({ channel: channel.channelId, user: userId, blocks, text });
      } catch {
        // fundbot is not in that channel: the admin gets the answer as a direct message instead.
        await client.chat.postMessage({ channel: userId, blocks, text });
      }
    } catch (error) {
      deps.logger.error(
        { err: error instanceof Error ? error.message : String(error), teamId },
        'Slack connect form failed',
      );
    }
  });
}

function parseMetadata(text: string): { channel?: string; locale?: Locale } {
  try {
    const parsed = JSON.parse(text) as { channel?: unknown; locale?: unknown };
    return {
      ...(typeof parsed.channel === 'string' ? { channel: parsed.channel } : {}),
      ...(typeof parsed.locale === 'string' && isLocale(parsed.locale) ? { locale: parsed.locale } : {}),
    };
  } catch {
    return {};
  }
}
