import { errorSummary } from '../domain/error-summary.js';
import { CommandRefusal } from './command-refusal.js';
import type { CommandRun } from './commands/command-run.js';
import type { Catalog } from './i18n/catalog.js';
import type { ChannelAccessResult, ChannelRef } from './ports.js';

/**
 * Refuses the command, in the channel's language, when the bot cannot post in the
 * invocation's channel; says what to do (invite it, grant a permission, unarchive).
 * A failed check counts as 'unknown' and refuses too: subscribing a channel that
 * then silently gets nothing is the failure this check exists to prevent.
 * Without a {@link ChannelAccess} (the console) there is nothing to check.
 * Cost: one platform request per call (Slack conversations.info; Discord usually
 * none, the channel and the bot's member being cached from the gateway).
 */
export async function ensureBotCanPost(run: CommandRun): Promise<void> {
  const access = run.deps.channelAccess;
  const { channel } = run.invocation.context;
  if (!access) return;
  let result: ChannelAccessResult;
  try {
    result = await access.canPost(channel);
  } catch (error) {
    run.deps.logger?.warn(
      { command: run.definition.name, platform: channel.platform, ...errorSummary(error) },
      'could not check whether the bot can post in the channel',
    );
    result = { ok: false, reason: 'unknown' };
  }
  if (result.ok) return;
  const refused = result;
  throw new CommandRefusal((t) => explainAccessProblem(t, channel, refused));
}

function explainAccessProblem(
  t: Catalog,
  channel: ChannelRef,
  result: Extract<ChannelAccessResult, { ok: false }>,
): string {
  switch (result.reason) {
    case 'not-member':
      return t.subscriptions.notMember(channel.platform);
    case 'no-permission': {
      const missing = result.missing?.map((p) => t.subscriptions.permissionNames[p]);
      return t.subscriptions.noPermission(
        channel.platform,
        missing && missing.length > 0 ? t.common.list(missing) : undefined,
      );
    }
    case 'archived':
      return t.subscriptions.archived;
    case 'unknown':
      return t.subscriptions.accessUnknown;
    case 'gone':
    case 'token-revoked':
      return t.access.problem(result.reason, channel.platform, undefined);
  }
}
