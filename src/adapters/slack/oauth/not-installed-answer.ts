import type { CommandCore } from '../../../core/index.js';
import { catalogFor } from '../../../core/index.js';
import type { Logger } from '../../../domain/logger.js';

/**
 * A slash command from a workspace fundbot has no installation for (never installed, or uninstalled):
 * Bolt cannot authorize it and calls no listener, so without this the user's command goes unanswered.
 * The answer goes to the command's response_url (no token needed), ephemeral, in the operator's default
 * language (the workspace's own settings went with its uninstall). Events from such a workspace have
 * no one to answer and are only acknowledged.
 *
 * Cost: one POST to Slack per refused command.
 */
export async function answerNotInstalled(options: {
  readonly body: unknown;
  readonly core: Pick<CommandCore, 'localeFor'>;
  readonly installUrl: string | undefined;
  readonly logger: Logger;
}): Promise<void> {
  const body = options.body as
    | { response_url?: unknown; team_id?: unknown; channel_id?: unknown }
    | undefined;
  const responseUrl = body?.response_url;
  if (typeof responseUrl !== 'string' || !/^https?:\/\//.test(responseUrl)) return;
  const teamId = typeof body?.team_id === 'string' ? body.team_id : '';
  const locale = await options.core
    .localeFor({
      platform: 'slack',
      workspaceId: teamId,
      channelId: typeof body?.channel_id === 'string' ? body.channel_id : '',
    })
    .catch(() => 'en' as const);
  const text = catalogFor(locale).errors.notInstalled(options.installUrl);
  try {
    const response = await fetch(responseUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', text }),
      signal: AbortSignal.timeout(5_000),
    });
    options.logger.info(
      { teamId, status: response.status },
      'a command from a workspace without installation was answered: not installed',
    );
  } catch (error) {
    options.logger.warn(
      { teamId, err: error instanceof Error ? error.message : String(error) },
      'could not answer a command from a workspace without installation',
    );
  }
}
