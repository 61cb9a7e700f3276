import type { App, types, webApi } from '@slack/bolt';
import type { ChannelRef, CommandCore, NeutralMessage } from '../../core/index.js';
import { catalogFor } from '../../core/index.js';
import type { Logger } from '../../domain/logger.js';
import { connectFormView } from './connect-form.js';
import { renderBlocks, slackLimits } from './render-blocks.js';
import { clip } from './slack-text.js';
import type { SlackUserLookup } from './slack-user-lookup.js';

const connectAction = 'fundbot_home_connect';
const disconnectAction = 'fundbot_home_disconnect';

/**
 * The App Home tab (issue 24: where a team looks): on `app_home_opened` fundbot publishes the workspace
 * overview (its projects, funding, which channels get what, health) with a connect button and a disconnect
 * button per connected project. Buttons act for the user who pressed them; the core checks admin rights.
 *
 * Below them, the last notices of the workspace's first channels with subscriptions (the delivery trace).
 *
 * Cost: one views.publish per opening of the tab, from the engine's cache and the store (no other platform
 * request).
 */
export function listenForAppHome(
  app: App,
  deps: {
    readonly core: CommandCore;
    readonly users: SlackUserLookup;
    readonly admins: ReadonlySet<string>;
    readonly logger: Logger;
  },
): void {
  const overview = deps.core.overview?.bind(deps.core);
  if (!overview) return;

  async function publish(client: webApi.WebClient, teamId: string, userId: string): Promise<void> {
    const workspace: ChannelRef = { platform: 'slack', workspaceId: teamId, channelId: '' };
    const locale = await deps.core.localeFor(workspace);
    const t = catalogFor(locale).hosted;
    const message = await (overview as (c: ChannelRef) => Promise<NeutralMessage>)(workspace);
    const { blocks } = renderBlocks({ ...message, fields: [] });
    const projectBlocks = (message.fields ?? []).map(
      (field): types.KnownBlock => ({
        type: 'section',
        text: {
          type: 'plain_text',
          text: clip(`${field.name}\n${field.value}`, slackLimits.sectionText),
          emoji: true,
        },
        ...(field.action
          ? {
              accessory: {
                type: 'button',
                action_id: disconnectAction,
                value: field.action.project,
                text: { type: 'plain_text', text: t.disconnectButton },
              },
            }
          : {}),
      }),
    );
    const connect: types.KnownBlock = {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: connectAction,
          style: 'primary',
          text: { type: 'plain_text', text: t.connectButton },
        },
      ],
    };
    // The delivery trace's section (issue 32, item 2): each channel's last notices, below the projects.
    const notices = deps.core.noticesOverview
      ? renderBlocks(await deps.core.noticesOverview(workspace)).blocks
      : [];
    await client.views.publish({
      user_id: userId,
      view: { type: 'home', blocks: [...blocks, ...projectBlocks, connect, ...notices].slice(0, 100) },
    });
  }

  const republish = (client: webApi.WebClient, teamId: string, userId: string) =>
    publish(client, teamId, userId).catch((error: unknown) =>
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error), teamId },
        'Slack App Home could not be published',
      ),
    );

  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    await republish(client, body.team_id, event.user);
  });

  app.action(connectAction, async ({ ack, body, client }) => {
    await ack();
    const teamId = body.team?.id ?? '';
    const locale = await deps.core.localeFor({ platform: 'slack', workspaceId: teamId, channelId: '' });
    const trigger = (body as { trigger_id?: string }).trigger_id ?? '';
    // No channel: the form's answer goes to the admin as a direct message.
    await client.views.open({ trigger_id: trigger, view: connectFormView(locale, body.user.id) });
  });

  app.action(disconnectAction, async ({ ack, body, action, client }) => {
    await ack();
    const teamId = body.team?.id ?? '';
    const userId = body.user.id;
    const project = (action as { value?: string }).value ?? '';
    const facts = await deps.users.lookup(teamId, userId);
    const message = await deps.core.execute({
      name: 'disconnect',
      options: { project },
      context: {
        user: { id: userId, displayName: facts.displayName ?? userId },
        channel: { platform: 'slack', workspaceId: teamId, channelId: userId },
        canAdminister: deps.admins.has(userId) || facts.isWorkspaceAdmin,
      },
    });
    const { blocks, text } = renderBlocks(message);
    await client.chat.postMessage({ channel: userId, blocks, text });
    await republish(client, teamId, userId);
  });
}
